import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_APPS, type ServerApp, type StdioPeer, spawnServer } from '@code-cluster/testkit';
import { afterAll, expect, it } from 'vitest';

// Schemas every client and model accepts (single-type dialects such as Gemini function declarations
// among them), over every tool of every built server in its widest surface: a root of type object with
// no union at the root, no type arrays anywhere, descriptions within 1024 characters, and tools/list in
// the same order every time.

const WIDEST_SURFACE: Partial<Record<ServerApp, string[]>> = { groundstation: ['--scope', 'operador'] };
const MAX_DESCRIPTION = 1024;

const dataDir = mkdtempSync(join(tmpdir(), 'console-schemas-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Tool = { name: string; description?: string; inputSchema: unknown; outputSchema?: unknown };

async function listTools(app: ServerApp): Promise<Tool[]> {
  const peer: StdioPeer = spawnServer(app, WIDEST_SURFACE[app] ?? [], {
    env: { ...process.env, CODE_CLUSTER_DATA_DIR: dataDir },
  });
  try {
    await peer.initialize();
    const response = await peer.request('tools/list');
    const tools = (response.result as { tools?: Tool[] } | undefined)?.tools;
    if (!tools) throw new Error(`${app}: tools/list failed: ${JSON.stringify(response)}`);
    return tools;
  } finally {
    await peer.close();
  }
}

/** Every place in a schema that breaks one of the rules, as `tool.where: what`. */
function violations(where: string, schema: unknown): string[] {
  const found: string[] = [];
  const root = schema as Record<string, unknown>;
  if (root?.type !== 'object')
    found.push(`${where}: root type is ${JSON.stringify(root?.type)}, not "object"`);
  for (const union of ['oneOf', 'anyOf', 'allOf'])
    if (union in root) found.push(`${where}: ${union} at the root`);
  const stack: Array<[string, unknown]> = [[where, schema]];
  while (stack.length > 0) {
    const [path, node] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray((node as { type?: unknown }).type)) found.push(`${path}: type array`);
    const description = (node as { description?: unknown }).description;
    if (typeof description === 'string' && description.length > MAX_DESCRIPTION)
      found.push(`${path}: description of ${description.length} characters`);
    for (const [key, value] of Object.entries(node)) stack.push([`${path}.${key}`, value]);
  }
  return found;
}

it('every tool of every built server has a schema every client accepts, listed in a stable order', async () => {
  const found: string[] = [];
  for (const app of SERVER_APPS) {
    const [first, second] = [await listTools(app), await listTools(app)];
    expect(first.length, `${app} offers no tools`).toBeGreaterThan(0);
    expect(
      second.map((t) => t.name),
      `${app}: tools/list order`,
    ).toEqual(first.map((t) => t.name));
    for (const tool of first) {
      if ((tool.description ?? '').length > MAX_DESCRIPTION)
        found.push(`${app}/${tool.name}: description of ${tool.description?.length} characters`);
      found.push(...violations(`${app}/${tool.name}.inputSchema`, tool.inputSchema));
      if (tool.outputSchema) found.push(...violations(`${app}/${tool.name}.outputSchema`, tool.outputSchema));
    }
  }
  expect(found).toEqual([]);
}, 120_000);
