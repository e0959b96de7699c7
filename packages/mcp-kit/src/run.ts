import { z } from 'zod';
import { booleanSetting, type ConfigOf, helpText, type OptionSpecs, parseConfig } from './config.js';
import { LOG_LEVELS, Logger } from './logging.js';
import { createKitServer, type ServerDefinition } from './server.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './tools/register.js';
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
    description: `largest accepted JSON-RPC message in bytes (default ${DEFAULT_MAX_LINE_BYTES})`,
  },
} satisfies OptionSpecs;

export type CommonConfig = ConfigOf<typeof commonOptions>;

export interface ServerApp<S extends OptionSpecs, D> {
  name: string;
  version: string;
  /** One line for --help. */
  summary: string;
  options: S;
  /**
   * Builds what the server needs from its config. Keep it cheap: it runs before the first message is
   * read, so heavy parts (an embedded system) belong behind a lazy import.
   */
  start(
    config: ConfigOf<S> & CommonConfig,
    logger: Logger,
  ): Promise<{ definition: ServerDefinition<D>; deps: D; close?: () => Promise<void> }>;
}

/** Grace period for shutdown work; the process exits by then whatever is pending (rule 5: within 2 s). */
const SHUTDOWN_GRACE_MS = 1_500;

/**
 * The whole life of a stdio server process: config, --help/--version, connect, and a clean exit (code 0)
 * on stdin end, SIGINT or SIGTERM. Nothing but JSON-RPC ever reaches stdout.
 */
export async function runStdioServer<S extends OptionSpecs, D>(
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
  process.stdin.once('end', () => shutdown('stdin closed'));
  process.on('uncaughtException', (error) => {
    logger.error('uncaught exception', { error });
    shutdown('uncaught exception', 1);
  });
  process.on('unhandledRejection', (error) => logger.error('unhandled rejection', { error }));

  const { definition, deps, close } = await app.start(config, logger);
  closeApp = close;
  const kit = createKitServer(definition, {
    deps,
    logger,
    readOnly: config.readOnly,
    toolTimeoutMs: config.toolTimeoutMs,
  });
  closeServer = kit.close;
  await kit.connect(new StdioTransport({ maxLineBytes: config.maxLineBytes }));
  logger.info('ready on stdio', { version: app.version, readOnly: config.readOnly });
}

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
