import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../logging.js';
import { ErrorCodes, errorResponse, HttpErrorCodes, type JsonRpcId } from '../protocol/errors.js';
import { reusedIdError } from '../protocol/guard.js';
import { batchesAllowed, isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import type { KitServer } from '../server.js';
import {
  busyReply,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_INFLIGHT,
  requestId,
  SERVER_BUSY,
} from './flow.js';
import { allowOrigin, answerPreflight } from './http-cors.js';
import { SessionEventStore } from './http-event-store.js';
import {
  DEFAULT_HANDSHAKE_MS,
  DEFAULT_STREAM_HEARTBEAT_MS,
  DEFAULT_STREAM_MAX_MS,
  HEALTH_PATH,
  MCP_PATH,
} from './http-options.js';
import {
  BearerAuth,
  OriginGuard,
  type Principal,
  type Refusal,
  stripCredentials,
  type TokenEntry,
  urlHost,
} from './http-security.js';
import { type HttpSession, SessionRegistry } from './http-sessions.js';
import { StatelessCalls } from './http-stateless.js';
import {
  isInitializeRequest,
  parseError,
  readBody,
  reusedRequestId,
  SESSION_NOT_FOUND,
  screen,
  sendError,
  sendJson,
} from './http-wire.js';

/** What a client that sends no `MCP-Protocol-Version` header speaks, by the spec (stateless mode). */
const ASSUMED_PROTOCOL_VERSION = '2025-03-26';

export interface HttpServerOptions {
  /** Builds one server (with its own ProtocolSession) per session, or per request when stateless. */
  newServer: (principal?: Principal) => KitServer;
  logger: Logger;
  host: string;
  port: number;
  /** Bearer token clients must present; unset: no authentication (loopback only, enforced by run.ts). */
  token?: string;
  /** Tokens with their own scope (`MCP_HTTP_TOKENS_FILE`): each session gets the rights of its token. */
  tokens?: readonly TokenEntry[];
  allowedOrigins?: readonly string[];
  allowedHosts?: readonly string[];
  stateless?: boolean;
  /** `sse` (default): POST answers are SSE streams (progress, resumability); `json`: plain JSON. */
  response?: 'sse' | 'json';
  sessionIdleMs: number;
  maxSessions: number;
  /** Sessions one client (remote address) may hold; defaults to the whole cap. */
  maxSessionsPerClient?: number;
  /** A session whose handshake is not complete this long after `initialize` is closed. */
  sessionHandshakeMs?: number;
  /** An SSE comment on every open GET stream this often. */
  streamHeartbeatMs?: number;
  /** A GET stream is ended after this long; the client opens a new one. */
  streamMaxMs?: number;
  /** JSON-RPC requests of one session whose responses are not finished; one more gets 429. */
  maxInflight?: number;
  /** Unread bytes a session may hold in its open responses before new work gets 429. */
  maxBufferedBytes?: number;
  /** Largest accepted POST body in bytes. */
  maxBodyBytes: number;
}

export interface RunningHttpServer {
  /** The MCP endpoint, with the port actually bound (`--port 0` picks one). */
  readonly url: string;
  readonly server: Server;
  /** Live sessions. */
  readonly sessions: number;
  /** Stops listening, closes every session and connection. */
  close(): Promise<void>;
}

/**
 * Streamable HTTP (MCP 2025-03-26 to 2025-11-25) on node:http. The SDK's StreamableHTTPServerTransport does
 * the protocol of each session (POST answered as SSE or JSON, GET stream, DELETE, resumability); around it
 * this adds what it lacks or leaves off by default: Host/Origin allowlists, bearer auth, a body limit, the
 * cluster's version list, a shape check of each message by DESIGN.md rule 3, a session registry with a cap
 * and idle expiry, a bounded per-session event store, stateless mode, a health endpoint, and JSON-RPC
 * error bodies for every failure. Each session's transport is wrapped in the GuardedTransport (through
 * `KitServer.connect`), so every protocol rule holds per session exactly as on stdio.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const { logger } = options;
  const origins = new OriginGuard({
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
    bindHost: options.host,
  });
  const auth =
    options.token || options.tokens?.length ? new BearerAuth(options.token, options.tokens) : undefined;
  const registry = new SessionRegistry(
    {
      maxSessions: options.maxSessions,
      maxPerClient: options.maxSessionsPerClient ?? options.maxSessions,
      idleMs: options.sessionIdleMs,
      handshakeMs: options.sessionHandshakeMs ?? DEFAULT_HANDSHAKE_MS,
    },
    logger,
  );
  const maxInflight = options.maxInflight ?? DEFAULT_MAX_INFLIGHT;
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  /** Stateless mode: JSON-RPC requests in flight per client (remote address). */
  const statelessInflight = new Map<string, number>();
  const enableJsonResponse = options.response === 'json';
  const statelessCalls = new StatelessCalls();

  const refuse = (res: ServerResponse, refusal: Refusal) =>
    sendError(res, refusal.status, refusal.code, refusal.message, {
      headers: refusal.headers,
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === HEALTH_PATH) {
      if (req.method === 'GET' || req.method === 'HEAD') sendJson(res, 200, { status: 'ok' });
      else
        sendError(res, 405, HttpErrorCodes.MethodNotAllowed, 'Method not allowed', {
          headers: { Allow: 'GET, HEAD' },
        });
      return;
    }
    if (path !== MCP_PATH) {
      sendError(res, 404, HttpErrorCodes.NotFound, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    const originRefusal = origins.check(req);
    // A browser asks before it sends: the preflight carries no credentials, so it is answered before auth.
    if (!originRefusal && req.method === 'OPTIONS' && req.headers.origin !== undefined) {
      answerPreflight(req, res);
      return;
    }
    if (!originRefusal && req.headers.origin !== undefined) allowOrigin(res, req.headers.origin);
    const refusal = originRefusal ?? auth?.check(req);
    if (refusal) {
      logger.info('http request refused', { status: refusal.status, reason: refusal.message });
      refuse(res, refusal);
      return;
    }
    const principal = auth?.principalOf(req);
    stripCredentials(req);
    const allowed = options.stateless ? ['POST'] : ['POST', 'GET', 'DELETE'];
    if (!allowed.includes(req.method ?? '')) {
      const why = options.stateless ? ' (stateless mode: no GET stream, no session to delete)' : '';
      sendError(res, 405, HttpErrorCodes.MethodNotAllowed, `Method not allowed${why}`, {
        headers: { Allow: allowed.join(', ') },
      });
      return;
    }

    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, options.maxBodyBytes);
      if (read.kind === 'too-large') {
        sendError(
          res,
          413,
          ErrorCodes.InvalidRequest,
          `Payload Too Large: the body exceeds the limit of ${options.maxBodyBytes} bytes`,
          { headers: { Connection: 'close' } },
        );
        return;
      }
      try {
        body = JSON.parse(read.text);
      } catch {
        parseError(res);
        return;
      }
      const screened = screen(body);
      if (screened.kind === 'refused') {
        sendJson(res, 400, screened.reply);
        return;
      }
      if (screened.kind === 'nothing') {
        res.writeHead(202).end();
        return;
      }
      body = screened.body;
    }

    const version = req.headers['mcp-protocol-version'];
    if (Array.isArray(body)) {
      const spoken = options.stateless
        ? typeof version === 'string'
          ? version
          : ASSUMED_PROTOCOL_VERSION
        : registry.get(String(req.headers['mcp-session-id'] ?? ''))?.kit.session.protocolVersion;
      if (spoken !== undefined && !batchesAllowed(spoken)) {
        sendError(
          res,
          400,
          ErrorCodes.InvalidRequest,
          `Invalid Request: JSON-RPC batches were removed in MCP 2025-06-18 and this session speaks ${spoken.slice(0, 40)}; send one message per request`,
        );
        return;
      }
    }
    const opening = isInitializeRequest(body);
    if (typeof version === 'string' && !opening && !isSupportedVersion(version)) {
      sendError(
        res,
        400,
        HttpErrorCodes.UnsupportedProtocolVersion,
        `Bad Request: Unsupported protocol version: ${version.slice(0, 40)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
      return;
    }

    if (options.stateless) await serveStateless(req, res, body, opening, version, principal);
    else await serveStateful(req, res, body, opening, principal);
  }

  async function serveStateful(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    opening: boolean,
    principal: Principal | undefined,
  ): Promise<void> {
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string' && id !== '') {
      const session = registry.get(id);
      // Another token's session is not found: a session id must not carry one token's rights to another.
      if (!session || session.principal !== principal) {
        sendError(res, 404, SESSION_NOT_FOUND, 'Session not found');
        return;
      }
      const requests = requestIds(body);
      if (requests.length > 0 && refuseBusy(res, session, requests)) return;
      registry.track(session, res, requests.length);
      capStream(res, maxBufferedBytes);
      if (req.method === 'GET') keepStreamAlive(res);
      const lastEventId = req.headers['last-event-id'];
      const replay =
        req.method === 'GET' && typeof lastEventId === 'string'
          ? session.events.finishedReplay(lastEventId)
          : undefined;
      if (replay && String(req.headers.accept ?? '').includes('text/event-stream')) {
        res.writeHead(200, {
          'Content-Type': 'text/event-stream',
          'Cache-Control': 'no-cache, no-transform',
          'mcp-session-id': session.id,
        });
        for (const event of replay) {
          res.write(`event: message\nid: ${event.id}\ndata: ${JSON.stringify(event.message)}\n\n`);
        }
        res.end();
        return;
      }
      const reused = reusedRequestId(body, session.kit.session.inflight);
      if (reused !== undefined) {
        sendJson(res, 400, reusedIdError(reused));
        return;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (!opening) {
      sendError(res, 400, HttpErrorCodes.SessionRequired, 'Bad Request: Mcp-Session-Id header is required');
      return;
    }
    const client = req.socket.remoteAddress ?? 'unknown';
    const reservation = registry.reserve(client);
    if (reservation !== 'ok') {
      const perClient = reservation === 'client';
      logger.warning('http session refused', {
        reason: perClient ? 'client share' : 'cap',
        maxSessions: options.maxSessions,
      });
      sendError(
        res,
        perClient ? 429 : 503,
        HttpErrorCodes.TooManySessions,
        perClient
          ? `Too Many Requests: this client already holds ${options.maxSessionsPerClient} sessions (--max-sessions-per-client); close one (DELETE) or retry later`
          : `Service Unavailable: ${options.maxSessions} sessions are live (--max-sessions), retry later`,
        { headers: { 'Retry-After': '5' } },
      );
      return;
    }
    let session: HttpSession | undefined;
    try {
      const kit = options.newServer(principal);
      const events = new SessionEventStore();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        enableJsonResponse,
        eventStore: events,
        onsessioninitialized: (sessionId) => {
          session = {
            id: sessionId,
            kit,
            transport,
            events,
            client,
            principal,
            openedAt: Date.now(),
            lastSeen: Date.now(),
            inflight: 0,
            requests: 0,
            responses: new Set(),
          };
          registry.add(session);
          registry.track(session, res, 1);
        },
        onsessionclosed: (sessionId) => registry.delete(sessionId),
      });
      await kit.connect(transport);
      await transport.handleRequest(req, res, body);
      // The guard refused the initialize (malformed params): no session was opened after all.
      if (!session) await kit.close();
      else if (kit.session.phase === 'awaiting-initialize') await registry.close(session);
    } finally {
      registry.release(client);
    }
  }

  /**
   * Refuses new work of a session that already has `maxInflight` requests unanswered or leaves more than
   * `maxBufferedBytes` unread: 429 with a JSON-RPC error, instead of queueing the work in memory.
   */
  function refuseBusy(res: ServerResponse, session: HttpSession, ids: JsonRpcId[]): boolean {
    const id = ids.length === 1 ? ids[0]! : null;
    let reply: ReturnType<typeof busyReply> | undefined;
    if (session.requests + ids.length > maxInflight) reply = busyReply(id, session.requests, maxInflight);
    else {
      const unread = registry.unreadBytes(session);
      if (unread > maxBufferedBytes)
        reply = errorResponse(
          id,
          SERVER_BUSY,
          `Server busy: this session has ${unread} bytes of answers unread (limit ${maxBufferedBytes}, --max-buffered-bytes); read them, then retry`,
        );
    }
    if (!reply) return false;
    logger.info('http request refused: session busy', { requests: session.requests });
    sendJson(res, 429, reply, { 'Retry-After': '1' });
    return true;
  }

  /** Heartbeats keep proxies from cutting an idle stream; the lifetime lets an abandoned one end. */
  function keepStreamAlive(res: ServerResponse): void {
    const heartbeat = setInterval(() => {
      if (res.headersSent && !res.writableEnded) res.write(': keep-alive\n\n');
    }, options.streamHeartbeatMs ?? DEFAULT_STREAM_HEARTBEAT_MS);
    const lifetime = setTimeout(() => res.end(), options.streamMaxMs ?? DEFAULT_STREAM_MAX_MS);
    heartbeat.unref();
    lifetime.unref();
    res.once('close', () => {
      clearInterval(heartbeat);
      clearTimeout(lifetime);
    });
  }

  async function serveStateless(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    opening: boolean,
    version: string | string[] | undefined,
    principal: Principal | undefined,
  ): Promise<void> {
    if (statelessCalls.cancel(body)) {
      res.writeHead(202).end();
      return;
    }
    // No session carries ids from one POST to the next; within one batch they must still be unique.
    const reused = reusedRequestId(body, new Set());
    if (reused !== undefined) {
      sendJson(res, 400, reusedIdError(reused));
      return;
    }
    // No session to hold the bound: one client (remote address) has --max-inflight requests at a time.
    const client = req.socket.remoteAddress ?? 'unknown';
    const requests = requestIds(body).length;
    const held = statelessInflight.get(client) ?? 0;
    if (requests > 0 && held + requests > maxInflight) {
      const ids = requestIds(body);
      sendJson(res, 429, busyReply(ids.length === 1 ? ids[0]! : null, held, maxInflight), {
        'Retry-After': '1',
      });
      return;
    }
    statelessInflight.set(client, held + requests);
    res.once('close', () => {
      const left = (statelessInflight.get(client) ?? requests) - requests;
      if (left <= 0) statelessInflight.delete(client);
      else statelessInflight.set(client, left);
    });
    capStream(res, maxBufferedBytes);
    const kit = options.newServer(principal);
    if (!opening) {
      // No session carries the handshake from one request to the next: each request is taken as coming
      // from an initialized client that speaks the version of its MCP-Protocol-Version header.
      kit.session.phase = 'ready';
      kit.session.protocolVersion = typeof version === 'string' ? version : ASSUMED_PROTOCOL_VERSION;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse,
    });
    await kit.connect(transport);
    res.once('close', () => void kit.close().catch(() => {}));
    statelessCalls.track(body, transport, (done) => res.once('close', done));
    await transport.handleRequest(req, res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      logger.error('http request failed', { error });
      sendError(res, 500, ErrorCodes.InternalError, 'Internal error');
    });
  });
  // A request Node cannot even parse is answered in JSON too, not with an empty or HTML body.
  server.on('clientError', (_error, socket) => {
    if (!socket.writable) return;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Bad Request' },
    });
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(address.address)}:${address.port}${MCP_PATH}`;

  return {
    url,
    server,
    get sessions() {
      return registry.size;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await registry.closeAll();
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Ids of the JSON-RPC requests a POST body carries (a message or a batch). */
function requestIds(body: unknown): JsonRpcId[] {
  const messages = Array.isArray(body) ? body : body === undefined ? [] : [body];
  return messages.map(requestId).filter((id): id is JsonRpcId => id !== undefined);
}

/**
 * Bounds what one response stream may hold unread: writing to a stream whose client has left more than
 * `limit` bytes unread ends it instead (its events stay in the session's store, so the client can resume
 * with Last-Event-ID once it reads again).
 */
function capStream(res: ServerResponse, limit: number): void {
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    if (res.headersSent && res.writableLength > limit) {
      res.destroy();
      return false;
    }
    return write(...args);
  }) as typeof res.write;
}
