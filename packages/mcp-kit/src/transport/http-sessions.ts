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
  /** The token entry that opened the session; only that token may use it. Undefined: the shared token. */
  readonly principal?: Principal | undefined;
  /** Last time a request of this session started or ended (ms since epoch). */
  lastSeen: number;
  /** Requests of this session in flight, open GET streams included: such a session is never idle. */
  inflight: number;
}

/**
 * The live sessions of one HTTP server: a cap on how many (slots are reserved before a session is built,
 * so concurrent initializes cannot overshoot it) and expiry of idle ones.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, HttpSession>();
  private reserved = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly maxSessions: number,
    private readonly idleMs: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(Math.max(idleMs / 4, 50), 30_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Holds a slot for a session about to be built; false when the cap is reached. */
  reserve(): boolean {
    if (this.sessions.size + this.reserved >= this.maxSessions) return false;
    this.reserved++;
    return true;
  }

  release(): void {
    this.reserved--;
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

  /** Counts a request of the session until its response is finished or its connection drops. */
  track(session: HttpSession, done: (callback: () => void) => void): void {
    session.inflight++;
    session.lastSeen = this.now();
    done(() => {
      session.inflight--;
      session.lastSeen = this.now();
    });
  }

  async close(session: HttpSession): Promise<void> {
    this.delete(session.id);
    await session.kit.close().catch(() => {});
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map((session) => this.close(session)));
  }

  private sweep(): void {
    const deadline = this.now() - this.idleMs;
    for (const session of this.sessions.values()) {
      if (session.inflight === 0 && session.lastSeen < deadline) {
        this.logger.info('http session expired', { idleMs: this.idleMs });
        void this.close(session);
      }
    }
  }
}
