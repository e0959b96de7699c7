// The codes and the error shape are the shared rule definitions (the lab's grader judges by the same ones).
export {
  ErrorCodes,
  errorResponse,
  type JsonRpcErrorResponse,
  type JsonRpcId,
} from '@code-cluster/shared/protocol';

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
