import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { isDomainError, ProtocolError } from './protocol/errors.js';

/** MCP's code for a resource that does not exist (the SDK answers -32602 by default). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * Reads a JSON resource through one error path: a missing entity (an invalid URI variable, or a domain
 * error with status 404) is -32002 "Resource not found", anything else propagates as an internal error.
 */
export async function readJsonResource(
  uri: URL,
  load: () => Promise<unknown>,
  options: { valid?: boolean } = {},
): Promise<ReadResourceResult> {
  if (options.valid === false) throw notFound(uri);
  try {
    const data = await load();
    return {
      contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }],
    };
  } catch (error) {
    if (isDomainError(error) && (error as { status?: unknown }).status === 404) throw notFound(uri);
    throw error;
  }
}

function notFound(uri: URL): ProtocolError {
  return new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.href}`, { uri: uri.href });
}
