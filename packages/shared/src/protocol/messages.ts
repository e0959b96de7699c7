import { ErrorCodes, errorResponse, type JsonRpcErrorResponse, type JsonRpcId } from './errors.js';

/**
 * A JSON-RPC message as it travels, described structurally so this package needs no MCP SDK. A value
 * classified as a request, notification or response has exactly the shape the SDK's `JSONRPCMessage`
 * describes, which is how mcp-kit narrows it back to the SDK's type.
 */
export type JsonRpcMessage = { jsonrpc: '2.0'; [key: string]: unknown };

/**
 * What one incoming message is, by the rules of JSON-RPC 2.0 as MCP uses it (DESIGN.md §3 rule 3). Kept
 * free of any transport so the stdio and HTTP transports and the lab's transcript grader judge alike.
 * `message` is the message rebuilt from its members (see `classifyMessage`), never the value received.
 */
export type Incoming<M = JsonRpcMessage> =
  | { kind: 'request'; id: JsonRpcId; method: string; message: M }
  | { kind: 'notification'; method: string; message: M }
  | { kind: 'response'; id: JsonRpcId; message: M }
  /** Not acceptable; `reply` is what to answer, or undefined when nothing may be answered (a notification). */
  | { kind: 'invalid'; reply: JsonRpcErrorResponse | undefined; reason: string };

/**
 * Deepest nesting accepted in a message's `params` (or a response's `result`/`error`), the params object
 * itself being level 1. No MCP message comes near it; a deeper one would only reach code that recurses
 * (schema checks, JSON.stringify) and exhaust its stack. The message size is bounded by the transport
 * (`--max-line-bytes`), so depth and size are both known before anything recursive runs.
 */
export const MAX_MESSAGE_DEPTH = 64;

/**
 * A valid JSON-RPC id as MCP allows it: a string or an integer a JavaScript number holds exactly. Any
 * other number (1.5, 1e-323, 9007199254740993) could only be echoed rounded, as an id the client never
 * sent, so it is not an id at all.
 */
export function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses one line of text: the value, or the -32700 (id null) answer to a line that is not JSON. */
export function parseLine(
  line: string,
): { ok: true; value: unknown } | { ok: false; reply: JsonRpcErrorResponse } {
  try {
    return { ok: true, value: JSON.parse(line) };
  } catch {
    return {
      ok: false,
      reply: errorResponse(null, ErrorCodes.ParseError, 'Parse error: the line is not valid JSON'),
    };
  }
}

/** Parses and classifies one line of a transcript or a stream. */
export function classifyLine(line: string): Incoming {
  const parsed = parseLine(line);
  return parsed.ok ? classifyMessage(parsed.value) : invalid(parsed.reply, 'parse');
}

type Copied = { ok: true; value: unknown } | { ok: false; path: string };

/**
 * Copies a JSON value into fresh plain objects and arrays, refusing one nested deeper than
 * MAX_MESSAGE_DEPTH. Iterative on purpose: it is what makes a deep value safe to hand on, so it must not
 * recurse itself.
 *
 * Prototype-named keys are neutralised on the way. `__proto__` is removed wherever it appears: no
 * JavaScript object can carry it as plain data (assigning it sets the prototype; zod drops it silently),
 * so it goes once, at the border, and never reaches code that might assign it. `constructor` and
 * `prototype` stay what JSON made them, own data keys of fresh plain objects: nothing inherited is ever
 * read through them, and a tool's strict schema refuses them by name like any unknown argument.
 */
export function copyJsonValue(root: unknown, rootPath: string): Copied {
  if (typeof root !== 'object' || root === null) return { ok: true, value: root };
  type Frame = { source: object; target: Record<string, unknown> | unknown[]; depth: number; path: string };
  const make = (source: object) => (Array.isArray(source) ? new Array<unknown>(source.length) : {});
  const top = make(root);
  const stack: Frame[] = [{ source: root, target: top, depth: 1, path: rootPath }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.depth > MAX_MESSAGE_DEPTH) return { ok: false, path: frame.path };
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.source)
      ? frame.source.map((value, index) => [index, value])
      : Object.entries(frame.source);
    for (const [key, value] of entries) {
      if (key === '__proto__') continue;
      let copy = value;
      if (typeof value === 'object' && value !== null) {
        copy = make(value);
        const path = typeof key === 'number' ? `${frame.path}[${key}]` : `${frame.path}.${key}`;
        // Only the start of a path is worth quoting: past a few levels it is the same bracket again.
        const shown = path.length > 80 ? `${path.slice(0, 80)}…` : path;
        stack.push({ source: value, target: copy as Frame['target'], depth: frame.depth + 1, path: shown });
      }
      // Plain assignment creates an own data property for every key but `__proto__`, skipped above.
      (frame.target as Record<string | number, unknown>)[key] = copy;
    }
  }
  return { ok: true, value: top };
}

function tooDeep(path: string): string {
  return `nested deeper than the limit of ${MAX_MESSAGE_DEPTH} levels at ${path}`;
}

/**
 * Classifies one message, once, before any SDK sees it. A request, notification or response comes back
 * rebuilt from its own members only (`jsonrpc`, `id`, `method`, `params`, `result`, `error`): extra
 * top-level members are dropped, `params` is copied by `copyJsonValue`. The rules:
 * - a valid request → `request`;
 * - a valid id (string or safe integer) on an otherwise malformed request → -32600 with that id (-32602
 *   for params nested too deep or given by position);
 * - an invalid or unreadable id, or no id and no valid method → -32600 with id null;
 * - a notification, even malformed → never answered.
 */
export function classifyMessage(value: unknown): Incoming {
  if (Array.isArray(value)) {
    // JSON-RPC batches were dropped from MCP in 2025-06-18; answering each part would break id pairing.
    return invalid(
      errorResponse(null, ErrorCodes.InvalidRequest, 'Invalid Request: JSON-RPC batches are not supported'),
      'batch',
    );
  }
  if (!isPlainObject(value)) {
    return invalid(
      errorResponse(null, ErrorCodes.InvalidRequest, 'Invalid Request: not a JSON-RPC object'),
      'shape',
    );
  }
  if (!('id' in value)) return classifyWithoutId(value);
  if (!isValidId(value.id)) {
    // An error answer to something the client could not read legitimately carries id null: answering it
    // in turn would start two strict peers replying to each other.
    if (value.id === null && 'error' in value && !('method' in value)) {
      return { kind: 'invalid', reply: undefined, reason: 'error response with id null' };
    }
    return invalid(
      errorResponse(
        null,
        ErrorCodes.InvalidRequest,
        `Invalid Request: "id" must be a string or an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
      ),
      'id',
    );
  }
  const id = value.id;
  const refuse = (code: number, message: string, reason: string) =>
    invalid(errorResponse(id, code, message), reason);
  if (value.jsonrpc !== '2.0') {
    return refuse(ErrorCodes.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"', 'version');
  }
  if ('method' in value) {
    if (typeof value.method !== 'string' || 'result' in value || 'error' in value) {
      return refuse(
        ErrorCodes.InvalidRequest,
        'Invalid Request: "method" must be a string, without "result" or "error"',
        'request',
      );
    }
    if (value.params !== undefined && (typeof value.params !== 'object' || value.params === null)) {
      return refuse(ErrorCodes.InvalidRequest, 'Invalid Request: "params" must be an object', 'params');
    }
    if (Array.isArray(value.params)) {
      return refuse(
        ErrorCodes.InvalidParams,
        'Invalid params: "params" must be an object (MCP takes no parameters by position)',
        'params',
      );
    }
    const params = copyJsonValue(value.params, 'params');
    if (!params.ok)
      return refuse(ErrorCodes.InvalidParams, `Invalid params: ${tooDeep(params.path)}`, 'depth');
    const message: JsonRpcMessage = { jsonrpc: '2.0', id, method: value.method };
    if (params.value !== undefined) message.params = params.value;
    return { kind: 'request', id, method: value.method, message };
  }
  if ('result' in value !== 'error' in value) {
    const member = 'result' in value ? 'result' : 'error';
    const body = copyJsonValue(value[member], member);
    if (!body.ok) return { kind: 'invalid', reply: undefined, reason: `response ${tooDeep(body.path)}` };
    return { kind: 'response', id, message: { jsonrpc: '2.0', id, [member]: body.value } };
  }
  return refuse(
    ErrorCodes.InvalidRequest,
    'Invalid Request: neither a request, a notification nor a response',
    'shape',
  );
}

function classifyWithoutId(value: Record<string, unknown>): Incoming {
  if (typeof value.method !== 'string') {
    // No id and no method to make it a notification: JSON-RPC answers an invalid request, with id null.
    return invalid(
      errorResponse(
        null,
        ErrorCodes.InvalidRequest,
        'method' in value
          ? 'Invalid Request: "method" must be a string'
          : 'Invalid Request: neither a request (no "id"), a notification nor a response',
      ),
      'method',
    );
  }
  // A notification is never answered, not even when it is malformed.
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', reply: undefined, reason: 'malformed notification' };
  if (value.params !== undefined && !isPlainObject(value.params)) {
    return { kind: 'invalid', reply: undefined, reason: 'notification params must be an object' };
  }
  const params = copyJsonValue(value.params, 'params');
  if (!params.ok)
    return { kind: 'invalid', reply: undefined, reason: `notification ${tooDeep(params.path)}` };
  const message: JsonRpcMessage = { jsonrpc: '2.0', method: value.method };
  if (params.value !== undefined) message.params = params.value;
  return { kind: 'notification', method: value.method, message };
}

function invalid(reply: JsonRpcErrorResponse, reason: string): Incoming {
  return { kind: 'invalid', reply, reason };
}
