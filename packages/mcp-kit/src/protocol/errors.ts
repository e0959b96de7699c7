// The codes and the error shape are the shared rule definitions (the lab's grader judges by the same ones).
export {
  ErrorCodes,
  errorResponse,
  type JsonRpcErrorResponse,
  type JsonRpcId,
} from '@code-cluster/shared/protocol';

/**
 * Server-defined codes (JSON-RPC leaves -32000..-32099 to servers) of the HTTP transport's refusals, each
 * named for what it means so a client can tell "authenticate" from "handshake first" without parsing the
 * message. -32000 stays "Server not initialized" alone; -32001 (session not found) and -32005 (busy) are
 * the transport's own, beside the code they answer.
 */
export const HttpErrorCodes = {
  /** 401: no bearer token, or not a known one. */
  Unauthorized: -32010,
  /** 403: a Host or Origin outside the allowlists (DNS rebinding). */
  Forbidden: -32011,
  /** 404: a path other than the MCP endpoint. */
  NotFound: -32012,
  /** 405: an HTTP method the endpoint does not serve. */
  MethodNotAllowed: -32013,
  /** 400: an MCP-Protocol-Version header this server does not speak. */
  UnsupportedProtocolVersion: -32014,
  /** 400: a request other than initialize without an Mcp-Session-Id. */
  SessionRequired: -32015,
  /** 429 / 503: the per-client or the total session cap is reached. */
  TooManySessions: -32016,
} as const;

/**
 * A failure of the domain (unknown satellite, station in maintenance, system unavailable). It reaches the
 * model as a tool result with `isError: true`, never as a protocol error: the message must say what went
 * wrong and what to do instead, in Spanish.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  readonly domain = true;
  constructor(
    message: string,
    /** Machine-readable details for structured clients (kept small; never internals). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A protocol-level error raised on purpose inside a handler; sent as a JSON-RPC error. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * A domain error is a DomainError or any Error marked `domain: true`: packages that must not depend on the
 * protocol layer (the REST clients in `shared`) raise their own errors and still reach the model as
 * `isError` results.
 */
export function isDomainError(error: unknown): error is Error {
  return error instanceof Error && (error as { domain?: unknown }).domain === true;
}
