import { errorResponse, type JsonRpcErrorResponse, type JsonRpcId } from '../protocol/errors.js';

/** Requests of one session served at once; one more is refused with SERVER_BUSY instead of queued. */
export const DEFAULT_MAX_INFLIGHT = 8;
/**
 * Unread output one session may hold: on stdio, stdin is not read while stdout holds more; over HTTP,
 * a session holding more in its open responses gets no new work until its client reads.
 */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * JSON-RPC code of "too much work in flight for this session": in the implementation-defined server range,
 * distinct from -32000 (not initialized) so a client can tell "retry later" from "handshake first".
 */
export const SERVER_BUSY = -32005;

export function busyReply(id: JsonRpcId | null, inflight: number, limit: number): JsonRpcErrorResponse {
  return errorResponse(
    id,
    SERVER_BUSY,
    `Server busy: ${inflight} requests of this session are still unanswered (limit ${limit}, --max-inflight); retry after reading their answers`,
  );
}

/** The id of a JSON-RPC request (a message with a method and a valid id), else undefined. */
export function requestId(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { method, id } = message as { method?: unknown; id?: unknown };
  if (typeof method !== 'string') return undefined;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

/** The id a response answers (a message with an id and a result or an error, no method), else undefined. */
export function responseId(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as { method?: unknown; id?: unknown };
  if (m.method !== undefined || !('result' in m || 'error' in m)) return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}

/** The request a `notifications/cancelled` names, else undefined. */
export function cancelledId(message: unknown): JsonRpcId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
  if (m.method !== 'notifications/cancelled' || m.id !== undefined) return undefined;
  const id = m.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Requests of one session that were let in and not answered yet. Counted per id (not as a set), so a
 * duplicate id that the guard refuses cannot uncount the original while it still runs; a cancelled request
 * is uncounted at once because the SDK sends it no answer.
 */
export class InflightRequests {
  private readonly counts = new Map<string, number>();
  private total = 0;

  constructor(readonly limit: number) {}

  get size(): number {
    return this.total;
  }

  get full(): boolean {
    return this.total >= this.limit;
  }

  add(id: JsonRpcId): void {
    const key = keyOf(id);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total++;
  }

  /** Uncounts one request with this id, if one is counted. */
  settle(id: JsonRpcId): void {
    const key = keyOf(id);
    const count = this.counts.get(key);
    if (count === undefined) return;
    if (count === 1) this.counts.delete(key);
    else this.counts.set(key, count - 1);
    this.total--;
  }

  clear(): void {
    this.counts.clear();
    this.total = 0;
  }
}

// 1 and "1" are different ids.
const keyOf = (id: JsonRpcId) => `${typeof id}:${id}`;
