import type { LogLevel } from '../logging.js';

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
}
