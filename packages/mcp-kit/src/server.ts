import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { type Logger, type LogLevel, levelAtLeast } from './logging.js';
import { honestPromptErrors } from './prompt-errors.js';
import { GuardedTransport } from './protocol/guard.js';
import { LazyJsonSchemaValidator } from './protocol/lazy-validator.js';
import { ProtocolSession } from './protocol/session.js';
import { type ResourceSubscriptions, refuseSubscriptions, registerSubscriptions } from './subscriptions.js';
import type { AnyTool } from './tools/define.js';
import { DEFAULT_TOOL_TIMEOUT_MS, registerTools } from './tools/register.js';

export interface ServerDefinition<D> {
  name: string;
  version: string;
  title: string;
  /** Spanish; tells the model what the server is for and how its tools fit together. */
  instructions: string;
  tools: readonly AnyTool<D>[];
  /** Registers resources and resource templates (with their list/complete callbacks). */
  resources?: (server: McpServer, deps: D) => void;
  /** Registers prompts (with completions for their arguments). */
  prompts?: (server: McpServer, deps: D) => void;
  /** Resources a client may subscribe to (`resources/subscribe`); the kit notifies each subscribed session. */
  subscriptions?: (deps: D) => ResourceSubscriptions;
}

export interface ServerOptions<D> {
  deps: D;
  logger: Logger;
  readOnly?: boolean;
  toolTimeoutMs?: number;
  /** Stateless HTTP: no session outlives a request, so nothing may be offered that notifies later. */
  stateless?: boolean;
}

export interface KitServer {
  server: McpServer;
  session: ProtocolSession;
  /** Connects through the protocol guard; use this instead of `server.connect`. */
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds one MCP server from its definition: the SDK's McpServer with the cluster's protocol rules on top
 * (tool seam, lifecycle guard, client logging). No side effects until `connect`.
 */
export function createKitServer<D>(definition: ServerDefinition<D>, options: ServerOptions<D>): KitServer {
  const session = new ProtocolSession();
  const server = new McpServer(
    { name: definition.name, version: definition.version, title: definition.title },
    {
      instructions: definition.instructions,
      capabilities: { logging: {}, completions: {} },
      jsonSchemaValidator: new LazyJsonSchemaValidator(),
    },
  );

  registerTools(server, {
    tools: definition.tools,
    deps: options.deps,
    session,
    logger: options.logger,
    readOnly: options.readOnly ?? false,
    timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
  });
  definition.resources?.(server, options.deps);
  honestPromptErrors(server);
  definition.prompts?.(server, options.deps);
  if (definition.subscriptions && options.stateless) refuseSubscriptions(server);
  else if (definition.subscriptions)
    registerSubscriptions(server, definition.subscriptions(options.deps), options.logger);
  forwardLogsToClient(server, session, options.logger);

  return {
    server,
    session,
    connect: (transport) => server.connect(new GuardedTransport(transport, session, options.logger)),
    close: () => server.close(),
  };
}

/**
 * `logging/setLevel` chooses what reaches the client as `notifications/message`. Replaces the SDK's
 * handler, which forwards every level until the client chooses one.
 */
function forwardLogsToClient(server: McpServer, session: ProtocolSession, logger: Logger): void {
  server.server.setRequestHandler(SetLevelRequestSchema, (request) => {
    session.clientLogLevel = request.params.level as LogLevel;
    return {};
  });
  logger.addSink((level, message, fields) => {
    const threshold = session.clientLogLevel;
    if (!threshold || session.phase !== 'ready' || !levelAtLeast(level, threshold)) return;
    const data: Record<string, unknown> = { message };
    for (const [key, value] of Object.entries(fields)) {
      // Errors travel as their message only: stacks and internals stay on stderr.
      data[key] = value instanceof Error ? value.message : value;
    }
    server.server
      .notification({ method: 'notifications/message', params: { level, logger: logger.name, data } })
      .catch(() => {
        // The client is gone or the transport closed: nothing to tell, and logging it would loop.
      });
  });
}
