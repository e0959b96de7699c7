import { z } from 'zod';
import { booleanSetting, type ConfigOf, helpText, type OptionSpecs, parseConfig } from './config.js';
import type { RunningHttpServer } from './http.js';
import { LOG_LEVELS, Logger } from './logging.js';
import type { ProtocolSession } from './protocol/session.js';
import { createKitServer, type ServerDefinition } from './server.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tools/register.js';
import { selectToolsets, toolsetOptions } from './toolsets.js';
import { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_INFLIGHT, SERVER_BUSY } from './transport/flow.js';
import { transportOptions } from './transport/http-options.js';
import type { Principal, TokenEntry } from './transport/http-security.js';
import { loadTokensFile, tokensFileOption } from './transport/http-tokens.js';
import { DEFAULT_MAX_LINE_BYTES, StdioTransport } from './transport/stdio.js';

/** Settings every server of the cluster takes, on top of its own. */
export const commonOptions = {
  readOnly: {
    flag: 'read-only',
    env: 'MCP_READ_ONLY',
    boolean: true,
    schema: booleanSetting.default(false),
    description: 'offer only read-only tools; write tools are not registered and refuse if called',
  },
  logLevel: {
    flag: 'log-level',
    env: 'MCP_LOG_LEVEL',
    schema: z.enum(LOG_LEVELS).default('info'),
    description: `stderr log threshold (${LOG_LEVELS.join(', ')})`,
  },
  toolTimeoutMs: {
    flag: 'tool-timeout-ms',
    env: 'MCP_TOOL_TIMEOUT_MS',
    schema: z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_TOOL_TIMEOUT_MS),
    description: `per-tool timeout in milliseconds (default ${DEFAULT_TOOL_TIMEOUT_MS})`,
  },
  maxLineBytes: {
    flag: 'max-line-bytes',
    env: 'MCP_MAX_LINE_BYTES',
    schema: z.coerce
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024)
      .default(DEFAULT_MAX_LINE_BYTES),
    description: `largest accepted JSON-RPC message (stdio line, HTTP body) in bytes (default ${DEFAULT_MAX_LINE_BYTES})`,
  },
  maxInflight: {
    flag: 'max-inflight',
    env: 'MCP_MAX_INFLIGHT',
    schema: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_MAX_INFLIGHT),
    description: `requests of one session served at once: stdio reads on when one is answered, HTTP answers one more with error ${SERVER_BUSY} (default ${DEFAULT_MAX_INFLIGHT})`,
  },
  maxBufferedBytes: {
    flag: 'max-buffered-bytes',
    env: 'MCP_MAX_BUFFERED_BYTES',
    schema: z.coerce
      .number()
      .int()
      .min(64 * 1024)
      .max(4 * 1024 * 1024 * 1024)
      .default(DEFAULT_MAX_BUFFERED_BYTES),
    description: `unread output one session may hold before it gets no new work (default ${DEFAULT_MAX_BUFFERED_BYTES})`,
  },
  ...transportOptions,
  ...toolsetOptions,
  ...tokensFileOption,
} satisfies OptionSpecs;

export type CommonConfig = ConfigOf<typeof commonOptions>;

export interface ServerApp<S extends OptionSpecs, D> {
  name: string;
  version: string;
  /** One line for --help. */
  summary: string;
  options: S;
  /** Scopes a token of `MCP_HTTP_TOKENS_FILE` may name; a server without them refuses the file. */
  scopes?: readonly string[];
  /**
   * Builds what the server needs from its config. Keep it cheap: it runs before the first message is
   * read, so heavy parts (an embedded system) belong behind a lazy import.
   */
  start(
    config: ConfigOf<S> & CommonConfig,
    logger: Logger,
    /** The entries of `MCP_HTTP_TOKENS_FILE` (tokens left out): the rights its sessions may have. */
    principals: readonly Principal[],
  ): Promise<{ definition: ServerDefinition<D>; deps: D; close?: () => Promise<void> }>;
}

/** Grace period for shutdown work; the process exits by then whatever is pending (rule 5: within 2 s). */
const SHUTDOWN_GRACE_MS = 1_500;

/**
 * The whole life of a server process, on the transport its config picks: stdio (default) or Streamable
 * HTTP (`--transport http`). Config, --help/--version, connect, and a clean exit (code 0) on SIGINT or
 * SIGTERM (and, on stdio, when stdin ends). Nothing but JSON-RPC ever reaches stdout; logs go to stderr.
 */
export async function runServer<S extends OptionSpecs, D>(
  app: ServerApp<S, D>,
  argv: readonly string[] = process.argv.slice(2),
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  keepStdoutForProtocol();
  const specs = { ...commonOptions, ...app.options };
  const parsed = parseConfig(specs, argv, env);
  if (parsed.kind === 'help') {
    process.stderr.write(helpText(app.name, app.summary, specs));
    return;
  }
  if (parsed.kind === 'version') {
    process.stderr.write(`${app.name} ${app.version}\n`);
    return;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`${app.name}: ${parsed.message}\n`);
    process.exitCode = 2;
    return;
  }
  const config = parsed.config as ConfigOf<S> & CommonConfig;
  // Loaded only for HTTP: a stdio server never pays for node:http and the SDK's HTTP transport.
  const http = config.transport === 'http' ? await import('./http.js') : undefined;
  let tokens: TokenEntry[] | undefined;
  if (http && config.httpTokensFile) {
    const loaded = loadTokensFile(config.httpTokensFile, app.scopes ?? []);
    if (!loaded.ok) {
      process.stderr.write(`${app.name}: ${loaded.message}\n`);
      process.exitCode = 2;
      return;
    }
    tokens = loaded.tokens;
  }
  if (http && !config.httpToken && !tokens && !http.isLoopbackHost(config.httpHost)) {
    process.stderr.write(
      `${app.name}: refusing to listen on ${config.httpHost} without authentication: set MCP_HTTP_TOKEN, or bind a loopback address (--host 127.0.0.1)\n`,
    );
    process.exitCode = 2;
    return;
  }
  const logger = new Logger(app.name, config.logLevel);

  let closeApp: (() => Promise<void>) | undefined;
  let closeServer: (() => Promise<void>) | undefined;
  let stopping = false;
  const shutdown = (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { reason });
    // Not unref'd: this timer is the promise that the process ends even if a close hook hangs.
    setTimeout(() => process.exit(code), SHUTDOWN_GRACE_MS);
    Promise.allSettled([closeServer?.(), closeApp?.()]).finally(() => process.exit(code));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  let stdioSession: ProtocolSession | undefined;
  // Over HTTP stdin means nothing (a service often has /dev/null there): only signals end the server.
  if (!http) {
    process.stdin.once('end', () => {
      // Nobody reads stdout once stdin is closed: not even the shutdown's own log goes to the client.
      if (stdioSession) stdioSession.phase = 'closed';
      shutdown('stdin closed');
    });
  }
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception', { error });
    shutdown('uncaught exception', 1);
  });
  process.on('unhandledRejection', (error) => logger.error('unhandled rejection', { error }));

  const principals = (tokens ?? []).map(({ token: _secret, ...principal }) => principal);
  const { definition, deps, close } = await app.start(config, logger, principals);
  closeApp = close;
  // Known only once the app has built its definition; a bad choice is still a setting error (exit 2).
  const selected = selectToolsets(definition.tools, config.toolsets);
  const refusal = !selected.ok
    ? selected.message
    : config.dynamicToolsets && http && config.httpStateless
      ? "--dynamic-toolsets needs sessions: a stateless HTTP server cannot change a client's tool list"
      : undefined;
  if (refusal) {
    process.stderr.write(`${app.name}: ${refusal}\n`);
    // Exits at once: whatever the app started (a timer, a lazy system) must not keep a refused server up.
    await close?.();
    process.exit(2);
  }
  const newServer = (sessionLogger: Logger, principal?: Principal) =>
    createKitServer(definition, {
      principal,
      deps,
      logger: sessionLogger,
      readOnly: config.readOnly,
      toolTimeoutMs: config.toolTimeoutMs,
      stateless: http !== undefined && config.httpStateless,
      // Only SSE answers carry what a call sends before its result: with JSON answers the SDK drops a
      // notification tied to the call, and an untied one still reaches the client's GET stream.
      callStreams: http !== undefined && !config.httpStateless && config.httpResponse !== 'json',
      toolsets: selected.ok ? selected.toolsets : undefined,
      dynamicToolsets: config.dynamicToolsets,
    });

  if (!http) {
    const kit = newServer(logger);
    stdioSession = kit.session;
    closeServer = kit.close;
    await kit.connect(
      new StdioTransport({
        maxLineBytes: config.maxLineBytes,
        maxInflight: config.maxInflight,
        maxBufferedBytes: config.maxBufferedBytes,
      }),
    );
    logger.info('ready on stdio', { version: app.version, readOnly: config.readOnly });
    return;
  }

  let running: RunningHttpServer;
  try {
    running = await http.startHttpServer({
      // A logger per session: what one client's calls log reaches that client only (and stderr).
      newServer: (principal) => newServer(new Logger(app.name, config.logLevel), principal),
      logger,
      host: config.httpHost,
      port: config.httpPort,
      token: config.httpToken,
      tokens,
      allowedOrigins: config.httpAllowedOrigins,
      allowedHosts: config.httpAllowedHosts,
      stateless: config.httpStateless,
      response: config.httpResponse,
      sessionIdleMs: config.httpSessionIdleMs,
      maxSessions: config.httpMaxSessions,
      maxSessionsPerClient: config.httpMaxSessionsPerClient,
      sessionHandshakeMs: config.httpSessionHandshakeMs,
      streamHeartbeatMs: config.httpStreamHeartbeatMs,
      streamMaxMs: config.httpStreamMaxMs,
      maxInflight: config.maxInflight,
      maxBufferedBytes: config.maxBufferedBytes,
      maxBodyBytes: config.maxLineBytes,
    });
  } catch (error) {
    process.stderr.write(
      `${app.name}: cannot listen on ${config.httpHost}:${config.httpPort}: ${(error as Error).message}\n`,
    );
    shutdown('listen failed', 1);
    return;
  }
  closeServer = running.close;
  // Always printed (whatever the log level): with --port 0 this line is how a caller learns the port.
  process.stderr.write(`${app.name}: listening on ${running.url}\n`);
  logger.info('ready on Streamable HTTP', {
    version: app.version,
    readOnly: config.readOnly,
    stateless: config.httpStateless,
    auth: config.httpToken ? 'bearer' : 'none',
  });
}

/**
 * The name apps were written against before HTTP existed; it runs whatever transport the config picks, so
 * every app gets `--transport http` without a change.
 */
export const runStdioServer = runServer;

/**
 * A dependency that calls console.log would corrupt the JSON-RPC stream; in a stdio server every console
 * method writes to stderr instead.
 */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.warn = toStderr;
}
