import { ErrorCodes, errorResponse, type JsonRpcErrorResponse, type JsonRpcId } from './errors.js';

/**
 * Longest resource URI a request may name. The SDK matches URIs against templates only up to 1 MB and
 * answers longer ones with -32603; no URI of the cluster is anywhere near this.
 */
export const MAX_URI_LENGTH = 8192;

const URI_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/** A -32602 answer when a request names a resource URI over the bound, else undefined. */
export function oversizedUri(
  id: JsonRpcId,
  method: string,
  message: unknown,
): JsonRpcErrorResponse | undefined {
  if (!URI_METHODS.has(method)) return undefined;
  const uri = (message as { params?: { uri?: unknown } }).params?.uri;
  if (typeof uri !== 'string' || uri.length <= MAX_URI_LENGTH) return undefined;
  return errorResponse(
    id,
    ErrorCodes.InvalidParams,
    `Invalid params: uri: ${uri.length} characters exceeds the limit of ${MAX_URI_LENGTH}`,
  );
}
