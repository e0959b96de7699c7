import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCodes, isDomainError, ProtocolError } from './protocol/errors.js';

/**
 * A prompt has no `isError` result: a domain error raised while building one (an argument naming a lab,
 * a course or a satellite that does not exist) would reach the client as -32603 "Internal error", hiding
 * what the client can fix. Every prompt registered on `server` after this call answers such an error as
 * -32602 with the domain's message; an unavailable system (5xx) stays an internal error.
 */
export function honestPromptErrors(server: McpServer): void {
  const register = server.registerPrompt.bind(server) as (...args: unknown[]) => unknown;
  server.registerPrompt = ((name: string, config: unknown, callback: (...args: unknown[]) => unknown) =>
    register(name, config, async (...args: unknown[]) => {
      try {
        return await callback(...args);
      } catch (error) {
        if (isClientMistake(error)) {
          throw new ProtocolError(
            ErrorCodes.InvalidParams,
            `Argumentos inválidos para el prompt '${name}': ${error.message}`,
          );
        }
        throw error;
      }
    })) as typeof server.registerPrompt;
}

function isClientMistake(error: unknown): error is Error {
  if (!isDomainError(error)) return false;
  const status = (error as { status?: unknown }).status;
  return typeof status !== 'number' || (status >= 400 && status < 500);
}
