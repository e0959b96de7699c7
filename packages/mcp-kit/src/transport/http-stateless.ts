import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcId } from '../protocol/errors.js';
import { isValidId } from '../protocol/messages.js';

/**
 * The requests in flight in one stateless server process, by id. Without sessions each POST gets its own
 * server, so a `notifications/cancelled` (another POST) would reach a server that never saw the request;
 * this routes it to the one that runs it. Ids are chosen by clients and not scoped to one: an id that two
 * requests in flight share is ambiguous and cancels neither. A request running in another replica behind a
 * load balancer cannot be reached from here (docs/http.md).
 */
export class StatelessCalls {
  private readonly calls = new Map<JsonRpcId, Set<Call>>();

  /** Records the requests of one POST body until its response is finished or its connection drops. */
  track(body: unknown, transport: StreamableHTTPServerTransport, done: (callback: () => void) => void): void {
    const ids = requestIds(body);
    if (ids.length === 0) return;
    const call: Call = { transport, pending: new Set(ids) };
    for (const id of ids) {
      const calls = this.calls.get(id) ?? new Set<Call>();
      calls.add(call);
      this.calls.set(id, calls);
    }
    done(() => {
      for (const id of ids) {
        const calls = this.calls.get(id);
        calls?.delete(call);
        if (calls?.size === 0) this.calls.delete(id);
      }
    });
  }

  /**
   * Delivers a body made only of `notifications/cancelled` to the servers running those requests; false
   * when the body is anything else (it is then served as usual). A cancellation of a request that is not
   * in flight here (finished, unknown, ambiguous) is ignored, as the spec asks of any late cancellation.
   * A POST whose every request is cancelled will never get an answer: its stream is ended.
   */
  cancel(body: unknown): boolean {
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0 || !messages.every(isCancellation)) return false;
    for (const message of messages as Cancellation[]) {
      const calls = this.calls.get(message.params.requestId);
      if (calls?.size !== 1) continue;
      for (const call of calls) {
        call.transport.onmessage?.(message as unknown as JSONRPCMessage);
        call.pending.delete(message.params.requestId);
        // After the SDK has acted on the cancellation (a microtask later), so the call is aborted, not cut.
        if (call.pending.size === 0) setImmediate(() => void call.transport.close().catch(() => {}));
      }
    }
    return true;
  }
}

type Call = { transport: StreamableHTTPServerTransport; pending: Set<JsonRpcId> };

type Cancellation = { method: 'notifications/cancelled'; params: { requestId: JsonRpcId } };

function isCancellation(message: unknown): message is Cancellation {
  const m = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
  return !('id' in m) && m.method === 'notifications/cancelled' && isValidId(m.params?.requestId);
}

function requestIds(body: unknown): JsonRpcId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((message) => {
    const m = message as { id?: unknown; method?: unknown };
    return typeof m.method === 'string' && isValidId(m.id) ? [m.id] : [];
  });
}
