import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { OptionSpecs } from '../config.js';
import type { TokenEntry } from './http-security.js';

/** `MCP_HTTP_TOKENS_FILE`: bearer tokens that each carry their own scope. */
export const tokensFileOption = {
  httpTokensFile: {
    flag: 'http-tokens-file',
    env: 'MCP_HTTP_TOKENS_FILE',
    schema: z.string().min(1).optional(),
    description:
      'HTTP: JSON file [{"token","scope","label"}]; each session gets the scope of its bearer token (groundstation)',
  },
} satisfies OptionSpecs;

/** Long enough that guessing one is hopeless; the same floor for every entry. */
const MIN_TOKEN_CHARS = 16;

/**
 * Reads and checks a tokens file against the scopes the app knows. Every problem is reported naming the
 * file, the entry and what is wrong, never the token itself.
 */
export function loadTokensFile(
  file: string,
  scopes: readonly string[],
): { ok: true; tokens: TokenEntry[] } | { ok: false; message: string } {
  if (scopes.length === 0) return { ok: false, message: `${file}: this server has no scopes to give tokens` };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return { ok: false, message: `cannot read MCP_HTTP_TOKENS_FILE ${file}: ${(error as Error).message}` };
  }
  const schema = z
    .array(
      z.strictObject({
        token: z.string().min(MIN_TOKEN_CHARS).regex(/^\S+$/),
        scope: z.enum(scopes as [string, ...string[]]),
        label: z.string().min(1).max(64),
      }),
    )
    .min(1);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map(String).join('.') || 'the file';
    // The message, never the input: a token must not reach a log.
    return {
      ok: false,
      message: `invalid MCP_HTTP_TOKENS_FILE ${file} at ${where}: ${issue.path.at(-1) === 'token' ? `a token needs at least ${MIN_TOKEN_CHARS} characters and no spaces` : issue.message}`,
    };
  }
  const seen = new Set<string>();
  for (const [index, entry] of parsed.data.entries()) {
    if (seen.has(entry.token)) {
      return {
        ok: false,
        message: `invalid MCP_HTTP_TOKENS_FILE ${file} at ${index}.token: repeats an earlier token`,
      };
    }
    seen.add(entry.token);
  }
  return { ok: true, tokens: parsed.data };
}
