import { z } from 'zod';
import { booleanSetting, type ConfigOf, type OptionSpecs } from '../config.js';

export const DEFAULT_HTTP_PORT = 3000;
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS = 100;
/** Default share of the session cap one client (remote address) may hold. */
export const DEFAULT_MAX_SESSIONS_PER_CLIENT = 25;
export const DEFAULT_HANDSHAKE_MS = 10_000;
export const DEFAULT_STREAM_HEARTBEAT_MS = 15_000;
export const DEFAULT_STREAM_MAX_MS = 10 * 60_000;
/** The one endpoint of the Streamable HTTP transport. */
export const MCP_PATH = '/mcp';
/** Liveness for orchestrators; outside the MCP endpoint, no auth, says nothing but "ok". */
export const HEALTH_PATH = '/healthz';

const list = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  )
  .optional();

/**
 * The settings of the transport choice and of Streamable HTTP. Every server takes them (through
 * `commonOptions`), so any app gets HTTP with `--transport http` and no code of its own.
 */
export const transportOptions = {
  transport: {
    flag: 'transport',
    env: 'MCP_TRANSPORT',
    schema: z.enum(['stdio', 'http']).default('stdio'),
    description: 'stdio (default) or http (Streamable HTTP on --host:--port, endpoint /mcp)',
  },
  httpPort: {
    flag: 'port',
    env: 'MCP_HTTP_PORT',
    schema: z.coerce.number().int().min(0).max(65_535).default(DEFAULT_HTTP_PORT),
    description: `HTTP port (default ${DEFAULT_HTTP_PORT}; 0 picks a free one, printed on stderr)`,
  },
  httpHost: {
    flag: 'host',
    env: 'MCP_HTTP_HOST',
    schema: z.string().min(1).default(DEFAULT_HTTP_HOST),
    description: `HTTP bind address (default ${DEFAULT_HTTP_HOST}); a non-loopback one needs MCP_HTTP_TOKEN`,
  },
  httpToken: {
    flag: 'http-token',
    env: 'MCP_HTTP_TOKEN',
    schema: z.string().min(16, 'a bearer token of at least 16 characters').optional(),
    description: 'bearer token clients must send (prefer the env variable: flags show up in ps)',
  },
  httpAllowedOrigins: {
    flag: 'allowed-origins',
    env: 'MCP_HTTP_ALLOWED_ORIGINS',
    schema: list,
    description: 'comma-separated browser origins allowed besides loopback ones (default: loopback only)',
  },
  httpAllowedHosts: {
    flag: 'allowed-hosts',
    env: 'MCP_HTTP_ALLOWED_HOSTS',
    schema: list,
    description: 'comma-separated Host names allowed besides loopback and the bind address; * allows any',
  },
  httpStateless: {
    flag: 'stateless',
    env: 'MCP_HTTP_STATELESS',
    boolean: true,
    schema: booleanSetting.default(false),
    description: 'no sessions: a fresh server per request (no GET stream, resumability, subscriptions)',
  },
  httpResponse: {
    flag: 'http-response',
    env: 'MCP_HTTP_RESPONSE',
    schema: z.enum(['sse', 'json']).default('sse'),
    description: 'how POST requests are answered: sse (default; progress, resumability) or json',
  },
  httpSessionIdleMs: {
    flag: 'session-idle-ms',
    env: 'MCP_HTTP_SESSION_IDLE_MS',
    schema: z.coerce
      .number()
      .int()
      .min(100)
      .max(7 * 24 * 3_600_000)
      .default(DEFAULT_SESSION_IDLE_MS),
    description: `an HTTP session idle this long (ms) expires (default ${DEFAULT_SESSION_IDLE_MS})`,
  },
  httpMaxSessions: {
    flag: 'max-sessions',
    env: 'MCP_HTTP_MAX_SESSIONS',
    schema: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_MAX_SESSIONS),
    description: `live HTTP sessions at most; more are refused with 503 (default ${DEFAULT_MAX_SESSIONS})`,
  },
  httpMaxSessionsPerClient: {
    flag: 'max-sessions-per-client',
    env: 'MCP_HTTP_MAX_SESSIONS_PER_CLIENT',
    schema: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_MAX_SESSIONS_PER_CLIENT),
    description: `live HTTP sessions one client (remote address) may hold; at the share its least recently used idle one makes room, 429 if all are busy (default ${DEFAULT_MAX_SESSIONS_PER_CLIENT})`,
  },
  httpSessionHandshakeMs: {
    flag: 'session-handshake-ms',
    env: 'MCP_HTTP_SESSION_HANDSHAKE_MS',
    schema: z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_HANDSHAKE_MS),
    description: `a session without notifications/initialized this long (ms) after initialize is closed; at the cap such sessions go first (default ${DEFAULT_HANDSHAKE_MS})`,
  },
  httpStreamHeartbeatMs: {
    flag: 'stream-heartbeat-ms',
    env: 'MCP_HTTP_STREAM_HEARTBEAT_MS',
    schema: z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_STREAM_HEARTBEAT_MS),
    description: `an SSE comment on each open GET stream this often (ms) (default ${DEFAULT_STREAM_HEARTBEAT_MS})`,
  },
  httpStreamMaxMs: {
    flag: 'stream-max-ms',
    env: 'MCP_HTTP_STREAM_MAX_MS',
    schema: z.coerce
      .number()
      .int()
      .min(100)
      .max(7 * 24 * 3_600_000)
      .default(DEFAULT_STREAM_MAX_MS),
    description: `a GET stream is ended after this long (ms); the client opens a new one (default ${DEFAULT_STREAM_MAX_MS})`,
  },
} satisfies OptionSpecs;

export type TransportConfig = ConfigOf<typeof transportOptions>;
