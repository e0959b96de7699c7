import type { LogLevel } from '../logging.js';
import type { JsonRpcId } from './errors.js';

/**
 * Where one client connection stands in the MCP lifecycle. One per connection: the stdio server has one,
 * the HTTP transport one per `Mcp-Session-Id`.
 */
export class ProtocolSession {
  phase: 'awaiting-initialize' | 'initializing' | 'ready' | 'closed' = 'awaiting-initialize';
  /** The version answered to `initialize`, once answered. */
  protocolVersion: string | undefined;
  /** Threshold the client chose with `logging/setLevel`; nothing is forwarded to it before it chooses. */
  clientLogLevel: LogLevel | undefined;
  /**
   * Ids of the client's requests handed to the SDK and not answered (nor cancelled) yet. The SDK keys a
   * request's cancellation, and over HTTP its response stream, by the id: a second request reusing a live
   * id would make the first one uncancellable and lose its answer, so it is refused. Each entry is a token
   * of that one request, so freeing an id late never frees a newer request's.
   */
  readonly inflight = new Map<JsonRpcId, object>();
}
