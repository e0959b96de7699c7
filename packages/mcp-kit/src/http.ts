// The Streamable HTTP transport, apart from the main entry: a stdio server never loads node:http, the
// SDK's HTTP transport or their dependencies (runServer imports this lazily for --transport http).
export { SessionEventStore } from './transport/http-event-store.js';
export {
  DEFAULT_SESSION_IDLE_MS,
  HEALTH_PATH,
  MCP_PATH,
  type TransportConfig,
  transportOptions,
} from './transport/http-options.js';
export { isLoopbackHost } from './transport/http-security.js';
export { type HttpServerOptions, type RunningHttpServer, startHttpServer } from './transport/http-server.js';
