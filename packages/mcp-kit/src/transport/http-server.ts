import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '../logging.js';
import { ErrorCodes } from '../protocol/errors.js';
import { reusedIdError } from '../protocol/guard.js';
import { batchesAllowed, isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/versions.js';
import type { KitServer } from '../server.js';
import { SessionEventStore } from './http-event-store.js';
import { HEALTH_PATH, MCP_PATH } from './http-options.js';
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
  const registry = new SessionRegistry(options.maxSessions, options.sessionIdleMs, logger);
  const enableJsonResponse = options.response === 'json';
  const statelessCalls = new StatelessCalls();

  const refuse = (res: ServerResponse, refusal: Refusal) =>
    sendError(res, refusal.status, ErrorCodes.ServerNotInitialized, refusal.message, {
      headers: refusal.headers,
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === HEALTH_PATH) {
      if (req.method === 'GET' || req.method === 'HEAD') sendJson(res, 200, { status: 'ok' });
      else
        sendError(res, 405, ErrorCodes.ServerNotInitialized, 'Method not allowed', {
          headers: { Allow: 'GET, HEAD' },
        });
      return;
    }
    if (path !== MCP_PATH) {
      sendError(res, 404, ErrorCodes.ServerNotInitialized, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return;
    }
    const refusal = origins.check(req) ?? auth?.check(req);
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
      sendError(res, 405, ErrorCodes.ServerNotInitialized, `Method not allowed${why}`, {
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
        ErrorCodes.ServerNotInitialized,
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
      registry.track(session, (done) => res.once('close', done));
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
      sendError(res, 400, ErrorCodes.ServerNotInitialized, 'Bad Request: Mcp-Session-Id header is required');
      return;
    }
    if (!registry.reserve()) {
      logger.warning('http session refused: at the cap', { maxSessions: options.maxSessions });
      sendError(
        res,
        503,
        ErrorCodes.ServerNotInitialized,
        'Service Unavailable: too many sessions, retry later',
        {
          headers: { 'Retry-After': '5' },
        },
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
          session = { id: sessionId, kit, transport, events, principal, lastSeen: Date.now(), inflight: 0 };
          registry.add(session);
          registry.track(session, (done) => res.once('close', done));
        },
        onsessionclosed: (sessionId) => registry.delete(sessionId),
      });
      await kit.connect(transport);
      await transport.handleRequest(req, res, body);
      // The guard refused the initialize (malformed params): no session was opened after all.
      if (!session) await kit.close();
      else if (kit.session.phase === 'awaiting-initialize') await registry.close(session);
    } finally {
      registry.release();
    }
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
