/**
 * Requests a server answers before the handshake completes (DESIGN.md §3 rule 1); any other request gets
 * JSON-RPC error -32000 "Server not initialized" and nothing runs.
 */
export const ALLOWED_BEFORE_INITIALIZED: ReadonlySet<string> = new Set(['initialize', 'ping']);

export const NOT_INITIALIZED_MESSAGE = 'Server not initialized';

export function allowedBeforeInitialized(method: string): boolean {
  return ALLOWED_BEFORE_INITIALIZED.has(method);
}
