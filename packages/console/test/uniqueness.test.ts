import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_APPS, type ServerApp, type StdioPeer, spawnServer } from '@code-cluster/testkit';
import { afterAll, expect, it } from 'vitest';

// DESIGN.md §5: tool names are unique across the whole cluster. Loads tools/list from every built server
// of SERVER_APPS, straight through testkit (not through the console), in each server's widest surface.

/** Flags that register tools a server leaves out by default (none of them may clash either). */
const WIDEST_SURFACE: Partial<Record<ServerApp, string[][]>> = {
  groundstation: [[], ['--scope', 'operador']],
};

const dataDir = mkdtempSync(join(tmpdir(), 'console-uniqueness-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function toolNames(app: ServerApp, args: string[]): Promise<string[]> {
  const peer: StdioPeer = spawnServer(app, args, { env: { ...process.env, CODE_CLUSTER_DATA_DIR: dataDir } });
  try {
    await peer.initialize();
    const response = await peer.request('tools/list');
    const tools = (response.result as { tools?: Array<{ name: string }> } | undefined)?.tools;
    if (!tools) throw new Error(`${app} ${args.join(' ')}: tools/list failed: ${JSON.stringify(response)}`);
    return tools.map((t) => t.name);
  } finally {
    await peer.close();
  }
}

it('every tool name of every built server is unique across the cluster', async () => {
  const owners = new Map<string, ServerApp>();
  const clashes: string[] = [];
  for (const app of SERVER_APPS) {
    const surface = new Set<string>();
    for (const args of WIDEST_SURFACE[app] ?? [[]])
      for (const name of await toolNames(app, args)) surface.add(name);
    expect(surface.size, `${app} offers no tools`).toBeGreaterThan(0);
    for (const name of surface) {
      const owner = owners.get(name);
      if (owner) clashes.push(`${name}: ${owner} and ${app}`);
      else owners.set(name, app);
    }
  }
  expect(clashes).toEqual([]);
  expect(owners.get('programar_mantenimiento')).toBe('groundstation');
  expect([...owners.values()].sort()).toEqual(expect.arrayContaining([...SERVER_APPS]));
}, 60_000);
