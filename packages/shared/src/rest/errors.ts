/**
 * A failure to get an answer from a system, in words a model can act on (Spanish). `domain: true` marks it
 * for the MCP tool seam as a domain error (an `isError` tool result), without this package depending on
 * the protocol layer.
 */
export class SystemError extends Error {
  override readonly name = 'SystemError';
  readonly domain = true;
  constructor(
    message: string,
    /** `problem`: the system refused (4xx); `unavailable`: down, failing or too slow; `contract`: it answered something we cannot read. */
    readonly kind: 'problem' | 'unavailable' | 'contract',
    readonly status?: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}
