import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCodes, errorResponse, type JsonRpcId } from '../protocol/errors.js';
import { classifyMessage } from '../protocol/messages.js';

/** MCP's Streamable HTTP transport answers "session not found" with this code (as the SDK does). */
export const SESSION_NOT_FOUND = -32001;

/**
 * Answers with a JSON-RPC error body: every failure of the HTTP transport is JSON, never HTML, never a
 * stack trace.
 */
export function sendError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  options: { id?: JsonRpcId | null; headers?: Record<string, string> } = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, status, errorResponse(options.id ?? null, code, message), options.headers);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

export type BodyResult = { kind: 'body'; text: string } | { kind: 'too-large' };

/**
 * Reads a request body up to `limit` bytes. A body declared or found larger is reported as too large
 * without buffering it; the rest of it is read and discarded (up to a bound) so the client gets to read
 * the 413 instead of a reset connection.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve, reject) => {
    // Answered only once the rest of the body is drained: a 413 sent (with `Connection: close`) while the
    // client is still writing would reach it as a reset connection (EPIPE), not as the 413.
    const tooLarge = () => {
      discard(req, limit).then(() => resolve({ kind: 'too-large' }));
    };
    if (Number(req.headers['content-length']) > limit) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ kind: 'body', text: Buffer.concat(chunks, size).toString('utf8') });
    req.on('data', onData);
    req.on('end', onEnd);
    req.once('error', reject);
  });
}

/**
 * Drains what is left of an oversized body, settling when it has all arrived; cuts the connection if the
 * client keeps sending past four times the limit.
 */
function discard(req: IncomingMessage, limit: number): Promise<void> {
  return new Promise((resolve) => {
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > 4 * limit) req.destroy();
    });
    req.on('error', () => {});
    req.once('end', () => resolve());
    req.once('close', () => resolve());
    req.resume();
  });
}

export type Screened =
  /** What the SDK transport may see: the classified messages, rebuilt (malformed notifications removed). */
  | { kind: 'messages'; body: unknown }
  /** Refused before any session sees it: answer this JSON-RPC error with HTTP 400. */
  | { kind: 'refused'; reply: ReturnType<typeof errorResponse> }
  /** Only malformed notifications: nothing to answer (202, no body). */
  | { kind: 'nothing' };

/**
 * Judges a POST body by the same rules as a stdio line (DESIGN.md §3 rule 3) before the SDK does, which
 * would answer every shape problem with -32700: not a request → -32600 with the request's id where it has
 * one, a malformed notification → no answer. The SDK gets each message as the classifier rebuilt it
 * (extra members dropped, params copied and bounded in depth), never the body as received. A batch
 * (2025-03-26) is refused whole if one of its requests is malformed, so that no valid request in it goes
 * unanswered silently.
 */
export function screen(body: unknown): Screened {
  if (!Array.isArray(body)) {
    const incoming = classifyMessage(body);
    if (incoming.kind !== 'invalid') return { kind: 'messages', body: incoming.message };
    return incoming.reply ? { kind: 'refused', reply: incoming.reply } : { kind: 'nothing' };
  }
  if (body.length === 0) {
    return {
      kind: 'refused',
      reply: errorResponse(null, ErrorCodes.InvalidRequest, 'Invalid Request: empty batch'),
    };
  }
  const kept: unknown[] = [];
  for (const [index, element] of body.entries()) {
    const incoming = classifyMessage(element);
    if (incoming.kind !== 'invalid') kept.push(incoming.message);
    else if (incoming.reply) {
      return {
        kind: 'refused',
        reply: errorResponse(
          null,
          ErrorCodes.InvalidRequest,
          `Invalid Request: batch element ${index}: ${incoming.reply.error.message}`,
        ),
      };
    }
  }
  return kept.length === 0 ? { kind: 'nothing' } : { kind: 'messages', body: kept };
}

/** A single `initialize` request: the only message that may open a session. */
export function isInitializeRequest(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (body as { method?: unknown }).method === 'initialize' &&
    'id' in body
  );
}

export function parseError(res: ServerResponse): void {
  sendError(res, 400, ErrorCodes.ParseError, 'Parse error: the body is not valid JSON');
}

/**
 * The first request id of a body that is already in flight on the session, or repeated within the body
 * (a batch): the SDK's transport pairs each response with its stream by id, so such a request must be
 * refused before it sees it.
 */
export function reusedRequestId(
  body: unknown,
  inflight: { has(id: JsonRpcId): boolean },
): JsonRpcId | undefined {
  if (body === undefined) return undefined;
  const seen = new Set<JsonRpcId>();
  for (const message of Array.isArray(body) ? body : [body]) {
    const { id, method } = message as { id?: JsonRpcId; method?: unknown };
    if (id === undefined || typeof method !== 'string') continue;
    if (inflight.has(id) || seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}
