import type { ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../logging.js';
import type { KitServer } from '../server.js';
import type { SessionEventStore } from './http-event-store.js';
import type { Principal } from './http-security.js';

/** One MCP session over HTTP: its own server, protocol session, guard and SDK transport. */
export interface HttpSession {
  readonly id: string;
  readonly kit: KitServer;
  readonly transport: StreamableHTTPServerTransport;
  readonly events: SessionEventStore;
  /** Who opened it (remote address): the unit of the per-client share of the cap. */
  readonly client: string;
  /** When it was opened (ms since epoch). */
  readonly openedAt: number;
  /** The token entry that opened the session; only that token may use it. Undefined: the shared token. */
  readonly principal?: Principal | undefined;
  /** Last time a request of this session started or ended (ms since epoch). */
  lastSeen: number;
  /** Requests of this session in flight, open GET streams included: such a session is never idle. */
  inflight: number;
  /** JSON-RPC requests of this session whose response is not finished (written out) yet. */
  requests: number;
  /** Its open responses, whose unread bytes count against the session's buffer bound. */
  readonly responses: Set<ServerResponse>;
}

export interface SessionLimits {
  maxSessions: number;
  /** Sessions one client (remote address) may hold at once. */
  maxPerClient: number;
  idleMs: number;
  /** A session whose client has not completed the handshake within this time is closed. */
  handshakeMs: number;
}

export type Reservation = 'ok' | 'cap' | 'client';

/**
 * The live sessions of one HTTP server: a cap on how many (slots are reserved before a session is built,
 * so concurrent initializes cannot overshoot it), a per-client share of it, and expiry of idle ones.
 * Sessions that never completed the handshake cost a client nothing to open, so they get a short TTL and
 * are the first evicted when the cap is reached: a flood of bare `initialize` POSTs cannot lock out
 * clients that finish theirs.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly reserved = new Map<string, number>();
  private reservedTotal = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: SessionLimits,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const every = Math.min(limits.idleMs / 4, limits.handshakeMs / 2, 30_000);
    this.sweeper = setInterval(() => this.sweep(), Math.max(every, 50));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Holds a slot for a session `client` is about to open. At the client's share, one of its own sessions
   * makes room: the oldest that never completed its handshake, else the least recently used idle one (no
   * request in flight, no open GET stream) — a client that opens session after session without DELETE has
   * abandoned the old ones, and may displace only its own. At the cap, the oldest unready session of
   * anyone makes room. `client` or `cap` when nothing can.
   */
  reserve(client: string): Reservation {
    const held = this.ofClient(client) + (this.reserved.get(client) ?? 0);
    if (held >= this.limits.maxPerClient && !this.evictUnready(client) && !this.evictIdle(client))
      return 'client';
    const live = this.sessions.size + this.reservedTotal;
    if (live >= this.limits.maxSessions && !this.evictUnready()) return 'cap';
    this.reserved.set(client, (this.reserved.get(client) ?? 0) + 1);
    this.reservedTotal++;
    return 'ok';
  }

  release(client: string): void {
    const count = (this.reserved.get(client) ?? 1) - 1;
    if (count === 0) this.reserved.delete(client);
    else this.reserved.set(client, count);
    this.reservedTotal--;
  }

  add(session: HttpSession): void {
    this.sessions.set(session.id, session);
    this.logger.debug('http session opened', { sessions: this.sessions.size });
  }

  get(id: string): HttpSession | undefined {
    return this.sessions.get(id);
  }

  /** Forgets a session (the transport is closed by whoever ended it). */
  delete(id: string): void {
    if (this.sessions.delete(id)) this.logger.debug('http session closed', { sessions: this.sessions.size });
  }

  /**
   * Counts one HTTP request of the session (carrying `requests` JSON-RPC requests) until its response is
   * finished or its connection drops.
   */
  track(session: HttpSession, res: ServerResponse, requests = 0): void {
    session.inflight++;
    session.requests += requests;
    session.responses.add(res);
    session.lastSeen = this.now();
    res.once('close', () => {
      session.inflight--;
      session.requests -= requests;
      session.responses.delete(res);
      session.lastSeen = this.now();
    });
  }

  /** Bytes the session's client has not read yet from its open responses. */
  unreadBytes(session: HttpSession): number {
    let total = 0;
    for (const res of session.responses) total += res.writableLength;
    return total;
  }

  async close(session: HttpSession): Promise<void> {
    this.delete(session.id);
    await session.kit.close().catch(() => {});
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((session) => this.close(session)));
  }

  private ofClient(client: string): number {
    let count = 0;
    for (const session of this.sessions.values()) if (session.client === client) count++;
    return count;
  }

  /** Closes the oldest session (of `client`, or of anyone) whose handshake never completed. */
  private evictUnready(client?: string): boolean {
    let oldest: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if (session.kit.session.phase === 'ready') continue;
      if (client !== undefined && session.client !== client) continue;
      if (!oldest || session.openedAt < oldest.openedAt) oldest = session;
    }
    if (!oldest) return false;
    this.logger.info('http session evicted: the cap is reached and its handshake never completed');
    void this.close(oldest);
    return true;
  }

  /** Closes the least recently used session of `client` that has nothing in flight. */
  private evictIdle(client: string): boolean {
    let stalest: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      if (session.client !== client || session.inflight > 0) continue;
      if (!stalest || session.lastSeen < stalest.lastSeen) stalest = session;
    }
    if (!stalest) return false;
    this.logger.info('http session evicted: its client opened another at its share of the cap', {
      maxPerClient: this.limits.maxPerClient,
    });
    void this.close(stalest);
    return true;
  }

  private sweep(): void {
    const now = this.now();
    for (const session of this.sessions.values()) {
      if (session.kit.session.phase !== 'ready' && session.openedAt < now - this.limits.handshakeMs) {
        this.logger.info('http session expired: handshake not completed', {
          handshakeMs: this.limits.handshakeMs,
        });
        void this.close(session);
      } else if (session.inflight === 0 && session.lastSeen < now - this.limits.idleMs) {
        this.logger.info('http session expired', { idleMs: this.limits.idleMs });
        void this.close(session);
      }
    }
  }
}
