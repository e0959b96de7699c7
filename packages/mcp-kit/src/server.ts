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
import { activeTools, currentCall, DEFAULT_TOOL_TIMEOUT_MS, registerTools } from './tools/register.js';
import { DISCOVERY_TOOLS, SessionTools, type ToolSwitch } from './toolsets.js';
import type { Principal } from './transport/http-security.js';

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
  /**
   * Which lists can change while a session lasts, declared as `listChanged` (only these: a client must not
   * wait for notifications that never come). Tools can also change under `--dynamic-toolsets`.
   */
  changes?: { tools?: boolean; resources?: boolean; prompts?: boolean };
  /**
   * The dependencies of one session, built from the process's when the session starts: where per-client
   * state lives (who the session is, what it has unlocked). Tools, resources and prompts get these.
   */
  sessionDeps?: (deps: D, session: SessionControl) => D;
}

/** What a session's own state may do to what the session is offered. */
export interface SessionControl {
  /** Whose session it is over HTTP with `MCP_HTTP_TOKENS_FILE`; undefined otherwise (the process's rights). */
  principal: Principal | undefined;
  tools: ToolSwitch;
  /** Sends `notifications/resources/list_changed` to this session (once it is initialized). */
  resourcesChanged(): void;
  /** Sends `notifications/prompts/list_changed` to this session (once it is initialized). */
  promptsChanged(): void;
}

export interface ServerOptions<D> {
  deps: D;
  logger: Logger;
  readOnly?: boolean;
  toolTimeoutMs?: number;
  /** Stateless HTTP: no session outlives a request, so nothing may be offered that notifies later. */
  stateless?: boolean;
  /** Stateful Streamable HTTP with SSE answers: a list a tool call changes is announced on that call's stream. */
  callStreams?: boolean;
  /** The groups to offer (checked by `selectToolsets`); every group when unset. */
  toolsets?: readonly string[];
  /** Starts each session with the discovery tools only; `activar_grupo` turns groups on. */
  dynamicToolsets?: boolean;
  /** The token entry the session was opened with (HTTP, `MCP_HTTP_TOKENS_FILE`). */
  principal?: Principal | undefined;
}

export interface KitServer {
  server: McpServer;
  session: ProtocolSession;
  /** The tools this session sees; changing them notifies the client. */
  tools: ToolSwitch;
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

  const groups = options.toolsets;
  const offered = activeTools(definition.tools, options.readOnly ?? false).filter(
    (tool) => !groups || groups.includes(tool.toolset),
  );
  const dynamic = options.dynamicToolsets ?? false;
  // A stateless session ends with its request: no later notification can reach it.
  const live = !options.stateless;
  const declared = {
    tools: live && (dynamic || (definition.changes?.tools ?? false)),
    resources: live && (definition.changes?.resources ?? false),
    prompts: live && (definition.changes?.prompts ?? false),
  };
  const notify = (list: keyof typeof declared) => {
    // Before the handshake is over it is setup, not a change: the client has not listed anything yet (and
    // the SDK's own list_changed only checks for a transport).
    if (!live || session.phase !== 'ready') return;
    // A client told a list never changes does not look for the notification: changing it is a bug.
    if (!declared[list])
      throw new Error(`${definition.name} changed its ${list} without declaring listChanged`);
    const notification = { method: `notifications/${list}/list_changed` };
    // Only a call of this very session may carry it: another session's stream is another client.
    const call = currentCall.getStore();
    const sent = call?.server === server ? call.send(notification) : server.server.notification(notification);
    sent.catch(() => {
      // The client is gone: it has no list to refresh.
    });
  };
  const tools = new SessionTools<D>(
    dynamic ? [...(DISCOVERY_TOOLS as AnyTool<D>[]), ...offered] : offered,
    (tool) => !dynamic || (DISCOVERY_TOOLS as AnyTool<D>[]).includes(tool),
    () => notify('tools'),
  );
  const deps =
    definition.sessionDeps?.(options.deps, {
      principal: options.principal,
      tools,
      resourcesChanged: () => notify('resources'),
      promptsChanged: () => notify('prompts'),
    }) ?? options.deps;

  registerTools(server, {
    tools,
    listChanged: declared.tools,
    deps,
    session,
    logger: options.logger,
    readOnly: options.readOnly ?? false,
    timeoutMs: options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
    stateless: options.stateless ?? false,
    callStreams: options.callStreams ?? false,
  });
  definition.resources?.(server, deps);
  honestPromptErrors(server);
  definition.prompts?.(server, deps);
  // The SDK declares listChanged for every server with resources or prompts; only one that changes them may.
  if (definition.resources)
    server.server.registerCapabilities({ resources: { listChanged: declared.resources } });
  if (definition.prompts) server.server.registerCapabilities({ prompts: { listChanged: declared.prompts } });
  if (definition.subscriptions && options.stateless) refuseSubscriptions(server);
  else if (definition.subscriptions)
    registerSubscriptions(server, definition.subscriptions(deps), options.logger);
  forwardLogsToClient(server, session, options.logger);

  return {
    server,
    session,
    tools,
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
