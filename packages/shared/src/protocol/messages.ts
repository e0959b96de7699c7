import { ErrorCodes, errorResponse, type JsonRpcErrorResponse, type JsonRpcId } from './errors.js';

/**
 * A JSON-RPC message as it travels, described structurally so this package needs no MCP SDK. A value
 * classified as a request, notification or response has exactly the shape the SDK's `JSONRPCMessage`
 * describes, which is how mcp-kit narrows it back to the SDK's type.
 */
export type JsonRpcMessage = { jsonrpc: '2.0'; [key: string]: unknown };

/**
 * What one incoming line is, by the rules of JSON-RPC 2.0 as MCP uses it (DESIGN.md §3 rule 3). Kept free
 * of any transport so the stdio and HTTP transports and the lab's transcript grader judge alike.
 */
export type Incoming<M = JsonRpcMessage> =
  | { kind: 'request'; id: JsonRpcId; method: string; message: M }
  | { kind: 'notification'; method: string; message: M }
  | { kind: 'response'; id: JsonRpcId; message: M }
  /** Not acceptable; `reply` is what to answer, or undefined when nothing may be answered (a notification). */
  | { kind: 'invalid'; reply: JsonRpcErrorResponse | undefined; reason: string };

export function isValidId(id: unknown): id is JsonRpcId {
  return (
    (typeof id === 'string' || typeof id === 'number') && (typeof id !== 'number' || Number.isFinite(id))
  );
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
  const hasId = 'id' in value;
  const id = isValidId(value.id) ? value.id : null;

  if ('method' in value && !hasId) {
    // A notification is never answered, not even when it is malformed.
    if (value.jsonrpc !== '2.0' || typeof value.method !== 'string') {
      return { kind: 'invalid', reply: undefined, reason: 'malformed notification' };
    }
    if (value.params !== undefined && !isPlainObject(value.params)) {
      return { kind: 'invalid', reply: undefined, reason: 'notification params must be an object' };
    }
    return { kind: 'notification', method: value.method, message: value as JsonRpcMessage };
  }

  if (value.jsonrpc !== '2.0') {
    return invalid(
      errorResponse(id, ErrorCodes.InvalidRequest, 'Invalid Request: "jsonrpc" must be "2.0"'),
      'version',
    );
  }
  if (id === null) {
    return invalid(
      errorResponse(null, ErrorCodes.InvalidRequest, 'Invalid Request: "id" must be a string or a number'),
      'id',
    );
  }
  if ('method' in value) {
    if (typeof value.method !== 'string' || 'result' in value || 'error' in value) {
      return invalid(
        errorResponse(id, ErrorCodes.InvalidRequest, 'Invalid Request: malformed request'),
        'request',
      );
    }
    if (value.params !== undefined && !isPlainObject(value.params)) {
      return invalid(
        errorResponse(id, ErrorCodes.InvalidParams, 'Invalid params: "params" must be an object'),
        'params',
      );
    }
    return { kind: 'request', id, method: value.method, message: value as JsonRpcMessage };
  }
  if ('result' in value !== 'error' in value) {
    return { kind: 'response', id, message: value as JsonRpcMessage };
  }
  return invalid(
    errorResponse(
      id,
      ErrorCodes.InvalidRequest,
      'Invalid Request: neither a request, a notification nor a response',
    ),
    'shape',
  );
}

function invalid(reply: JsonRpcErrorResponse, reason: string): Incoming {
  return { kind: 'invalid', reply, reason };
}
