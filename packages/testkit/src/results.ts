import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The text blocks of a tool result, joined: what a client without structured content shows. */
export function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
}

/** The same for a tools/call response read off the wire (a raw peer), whose result is untyped. */
export function wireText(message: { result?: unknown }): string {
  return textOf(message.result as { content: Array<{ type: string; text?: string }> });
}

/** Whether a tools/call response read off the wire is a tool error (`isError: true`). */
export function wireIsError(message: { result?: unknown }): boolean {
  return (message.result as { isError?: boolean } | undefined)?.isError === true;
}

/** The structuredContent of a tools/call response read off the wire. */
export function wireData<T = Record<string, unknown>>(message: { result?: unknown }): T {
  return (message.result as { structuredContent: T }).structuredContent;
}

/** The text of the first content of a resource read. */
export function resourceText(result: { contents: Array<Record<string, unknown>> }): string {
  return String(result.contents[0]?.text);
}

/** A fresh data dir: servers spawned by tests must never touch the user's real one. */
export function tempDataDir(prefix = 'code-cluster-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The error a promise rejects with; throws (failing the test) if it fulfils instead. */
export async function rejectionOf<E = Error>(work: Promise<unknown>): Promise<E> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e ?? new Error('rejected with nothing'),
  );
  if (!error) throw new Error('expected a rejection, but the promise fulfilled');
  return error as E;
}
