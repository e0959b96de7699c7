import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { StdioPeer } from '@code-cluster/testkit';
import { inject, onTestFinished } from 'vitest';
import { node24 } from '../../../scripts/lib/node24.mjs';
import catalog from '../src/catalog.json' with { type: 'json' };

export { catalog };
export type CatalogServer = (typeof catalog.servers)[number];

export const packDir = () => inject('packDir');

/** The one file in the pack directory whose name ends so. */
export function packed(suffix: string): string {
  const names = readdirSync(packDir()).filter((name) => name.endsWith(suffix));
  if (names.length !== 1)
    throw new Error(`expected one *${suffix} in ${packDir()}, found ${names.join(', ')}`);
  return join(packDir(), names[0]!);
}

/** The Node 24 binary the repository fetches (scripts/lib/node24.mjs): Claude Desktop's runtime. */
export const node24Bin = () => node24((line: string) => process.stderr.write(`${line}\n`));
export const node24Dir = () => dirname(node24Bin());

/** A temporary directory removed when the test ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}${result.stderr}`,
    );
  }
  return result.stdout;
}

/** This process's environment without any server setting, so a developer's shell changes nothing. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const prefixes = ['MCP_', 'CODE_CLUSTER_', ...catalog.servers.map((s) => `${s.app.toUpperCase()}_`)];
  // NODE_PATH too: pnpm points it at the workspace's packages, which an installed server must not see.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => key !== 'NODE_PATH' && !prefixes.some((prefix) => key.startsWith(prefix)),
    ),
  );
  return { ...env, CODE_CLUSTER_CODE_CACHE: '0', ...extra };
}

/** Spawns a command as an MCP server, closed when the test ends. */
export function spawnPeer(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv },
) {
  const peer = StdioPeer.spawn(command, args, options);
  onTestFinished(async () => {
    await peer.close();
  });
  return peer;
}

/** initialize, then tools/list: the names (and descriptions) a client sees. */
export async function listTools(peer: StdioPeer): Promise<Array<{ name: string; description?: string }>> {
  await peer.initialize();
  const reply = await peer.request('tools/list');
  if (reply.error) throw new Error(`tools/list failed: ${JSON.stringify(reply.error)}\n${peer.stderr}`);
  return (reply.result as { tools: Array<{ name: string; description?: string }> }).tools;
}
