import { AsyncLocalStorage } from 'node:async_hooks';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { clientFeatures } from '../client-features.js';
import type { Logger } from '../logging.js';
import { ErrorCodes, isDomainError, ProtocolError } from '../protocol/errors.js';
import type { ProtocolSession } from '../protocol/session.js';
import { inputErrorsAreToolResults } from '../protocol/versions.js';
import type { SessionTools } from '../toolsets.js';
import { clientOffersUi, registerViews } from './apps.js';
import type { AnyTool, ToolContext } from './define.js';
import { type ToolSchemas, toJsonSchema } from './json-schema.js';
import { describeArgumentIssues, formatArgumentIssues } from './validation.js';

export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** The tool call being handled: its server, and how to notify on the call's own stream. */
export interface CallNotifier {
  server: McpServer;
  send(notification: { method: string }): Promise<void>;
}

/**
 * The tool call a piece of code runs in, if any. A list that changes because of a call is announced on
 * that call's own stream: over Streamable HTTP it reaches the client before the result, whereas the
 * standalone GET stream may not be open yet.
 */
export const currentCall = new AsyncLocalStorage<CallNotifier>();

export interface ToolRegistryOptions<D> {
  /** The tools this session sees; they may change while it lasts. */
  tools: SessionTools<D>;
  /** Whether `tools` can change: declared to the client as `tools.listChanged`. */
  listChanged: boolean;
  deps: D;
  session: ProtocolSession;
  logger: Logger;
  /** Drops every tool whose `readOnlyHint` is false, and refuses them in the call path too. */
  readOnly: boolean;
  timeoutMs: number;
  /** Stateless HTTP: the client features (elicitation, sampling, roots) are refused instead of hanging. */
  stateless?: boolean;
  /**
   * Stateful Streamable HTTP with SSE answers: each call answers on a stream of its own, and a list a call
   * changes is announced on it (`currentCall`). Off elsewhere: over stdio every message shares the one
   * stream, and a JSON answer carries nothing but the result.
   */
  callStreams?: boolean;
}

/** The tools a server offers under its mode: read-only mode keeps only tools that declare `readOnlyHint`. */
export function activeTools<D>(tools: readonly AnyTool<D>[], readOnly: boolean): AnyTool<D>[] {
  return readOnly ? tools.filter((tool) => tool.annotations.readOnlyHint) : [...tools];
}

declare const __CODE_CLUSTER_TOOL_SCHEMAS__: ToolSchemas | undefined;

/**
 * The JSON Schemas of a bundled bin's tools, converted by its build (scripts/build-app.mjs puts them here
 * with esbuild's `define`) instead of at every start: ~1.5 ms a tool in a fresh process, most of the time
 * between the `initialize` answer and the first `tools/list` answer. Undefined when the code runs from its
 * sources (tests, `tsx`), which convert as they go; the protocol suite checks that both agree.
 */
const BUILT_SCHEMAS: ToolSchemas | undefined =
  typeof __CODE_CLUSTER_TOOL_SCHEMAS__ === 'undefined' ? undefined : __CODE_CLUSTER_TOOL_SCHEMAS__;

/** The `tools/list` entry of a definition. */
export function describeTool(tool: AnyTool<unknown>): Tool {
  // Definitions never change, and converting zod to JSON Schema is costly: once per tool, not once per
  // session (HTTP builds a server per session), and in a bundled bin not even once.
  let described = descriptions.get(tool);
  if (!described) {
    const built = BUILT_SCHEMAS?.[tool.name];
    const output = tool.output && (built?.output ?? toJsonSchema(tool.output, 'output'));
    described = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: (built?.input ?? toJsonSchema(tool.input, 'input')) as Tool['inputSchema'],
      ...(output ? { outputSchema: output as Tool['outputSchema'] } : {}),
      annotations: { title: tool.title, ...tool.annotations },
    };
    descriptions.set(tool, described);
  }
  return described;
}

const descriptions = new WeakMap<AnyTool<unknown>, Tool>();

/**
 * The one seam every tool call passes through: lookup, argument check (with the error layer the
 * negotiated version asks for), timeout, cancellation, progress, output check, error mapping and timing.
 * Apps never write try/catch → isError themselves.
 *
 * Registered on the SDK's low-level server rather than through `McpServer.registerTool`, whose call path
 * turns unknown tools and invalid arguments into tool results under every protocol version.
 */
export function registerTools<D>(server: McpServer, options: ToolRegistryOptions<D>): void {
  const { logger, session, tools } = options;
  // Clients without MCP Apps get exactly the plain surface: no `_meta.ui`, no view-only tools, no views.
  const offersUi = () => clientOffersUi(server.server.getClientCapabilities());

  const features = clientFeatures(server, { stateless: options.stateless ?? false });

  server.server.registerCapabilities({ tools: { listChanged: options.listChanged } });
  registerViews(server, tools.offered as readonly AnyTool<unknown>[], offersUi);
  server.server.setRequestHandler(ListToolsRequestSchema, () => tools.list(offersUi()));
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    // Looked up per call: a tool this session no longer sees is as unknown as one it never had.
    const withUi = offersUi();
    const tool = tools.get(name, withUi);
    if (!tool) {
      throw new ProtocolError(
        ErrorCodes.InvalidParams,
        `Herramienta desconocida: '${name}'. Herramientas disponibles: ${tools.names(withUi).join(', ')}.`,
      );
    }
    if (options.readOnly && !tool.annotations.readOnlyHint) {
      // Unreachable while activeTools filters correctly; kept as the second wall of least privilege.
      return errorResult(`'${name}' modifica datos y el servidor funciona en modo solo lectura.`);
    }

    // Parsed without options first: zod copies a context object it is given on every parse, and only a
    // refusal needs the offending values (`reportInput`), so a refused call is parsed a second time.
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) {
      const reported = tool.input.safeParse(args, { reportInput: true });
      const issues = describeArgumentIssues((reported.error ?? parsed.error).issues);
      const message = formatArgumentIssues(name, issues);
      logger.info('tool arguments rejected', { tool: name, issues: issues.map((i) => i.message) });
      if (inputErrorsAreToolResults(session.protocolVersion)) return errorResult(message);
      throw new ProtocolError(ErrorCodes.InvalidParams, message, { issues });
    }

    const timeoutMs = tool.timeoutMs ?? options.timeoutMs;
    // One controller per call, aborted by the client's cancellation or by a cleared timer: AbortSignal.any
    // and AbortSignal.timeout cost a lot per call on Node 20 and leave 30 s timers behind. Either cause
    // also rejects `ended` at once, which ends the wait for a handler that ignores its signal (a listener
    // on the signal would do the same at ~4 µs per call: Node 20's EventTarget).
    const controller = new AbortController();
    let finish!: (output: { text: string; data?: unknown }) => void;
    let stop!: (reason: unknown) => void;
    const ended = new Promise<{ text: string; data?: unknown }>((resolve, reject) => {
      finish = resolve;
      stop = reject;
    });
    const abort = (reason: unknown) => {
      controller.abort(reason);
      stop(reason);
    };
    let timedOut = false;
    const deadline = Date.now() + timeoutMs;
    const timer = setTimeout(() => {
      timedOut = true;
      abort(new Error(`timeout after ${timeoutMs} ms`));
    }, timeoutMs);
    const onCancel = () => abort(extra.signal.reason);
    if (extra.signal.aborted) onCancel();
    else extra.signal.addEventListener('abort', onCancel, { once: true });
    const signal = controller.signal;
    const progressToken = request.params._meta?.progressToken;
    const asks = features.forCall({ signal, requestId: extra.requestId, deadline });
    // Every member written out, not `...asks`: V8 gives an object built by spread and then extended a slow
    // shape, which cost ~10 µs per call here.
    const context: ToolContext<D> = {
      clientOffers: asks.clientOffers,
      confirm: asks.confirm,
      elicit: asks.elicit,
      openUrl: asks.openUrl,
      completeUrl: asks.completeUrl,
      sample: asks.sample,
      roots: asks.roots,
      deps: options.deps,
      signal,
      deadline,
      logger,
      tools,
      progress: async (progress, total, message) => {
        if (progressToken === undefined || signal.aborted) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress,
            ...(total === undefined ? {} : { total }),
            ...(message ? { message } : {}),
          },
        });
      },
    };

    const started = performance.now();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    try {
      const run = () => tool.handler(parsed.data, context);
      // AsyncLocalStorage turns on Node 20's promise hooks for the whole process (every promise of every
      // call tracked, ~9 % of a stdio call's CPU): only where there is a call stream to relate to.
      const work = options.callStreams
        ? currentCall.run(
            { server, send: (notification) => extra.sendNotification(notification as never) },
            run,
          )
        : run();
      work.then(finish, stop);
      const output = await ended;
      const result: CallToolResult = { content: [{ type: 'text', text: output.text }] };
      if (tool.output) {
        const checked = tool.output.safeParse(output.data);
        if (!checked.success) {
          logger.error('tool output does not match its outputSchema', {
            tool: name,
            issues: checked.error.issues,
          });
          throw new ProtocolError(ErrorCodes.InternalError, 'Internal error');
        }
        result.structuredContent = checked.data as Record<string, unknown>;
      }
      logger.debug('tool call', { tool: name, ms: elapsed(), outcome: 'ok' });
      return result;
    } catch (error) {
      if (extra.signal.aborted) {
        // Cancelled by the client: the SDK sends no response, as the spec asks.
        logger.info('tool call', { tool: name, ms: elapsed(), outcome: 'cancelled' });
        throw error;
      }
      if (timedOut) {
        logger.warning('tool call', { tool: name, ms: elapsed(), outcome: 'timeout' });
        return errorResult(
          `'${name}' no terminó en ${formatSeconds(timeoutMs)} y se canceló. El sistema puede estar lento; ` +
            'vuelve a intentarlo más tarde o pide un intervalo más corto.',
        );
      }
      if (isDomainError(error)) {
        logger.info('tool call', {
          tool: name,
          ms: elapsed(),
          outcome: 'domain-error',
          message: error.message,
        });
        return errorResult(error.message);
      }
      if (error instanceof ProtocolError) throw error;
      logger.error('tool call failed', { tool: name, ms: elapsed(), error });
      throw new ProtocolError(ErrorCodes.InternalError, 'Internal error');
    } finally {
      clearTimeout(timer);
      extra.signal.removeEventListener('abort', onCancel);
    }
  });
}

function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
