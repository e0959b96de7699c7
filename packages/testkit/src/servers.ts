import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type SpawnOptions, StdioPeer } from './stdio-peer.js';

/** The servers of the cluster, by app folder. */
export const SERVER_APPS = ['satdt', 'groundstation', 'hub', 'roverdt', 'lab', 'academy'] as const;
export type ServerApp = (typeof SERVER_APPS)[number];

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** Path of an app's built, bundled bin (what `node` runs in Claude Desktop). */
export function serverBin(app: ServerApp): string {
  const bin = join(repoRoot, 'apps', app, 'dist', `${app}-mcp.cjs`);
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`pnpm build\` first`);
  return bin;
}

/** Spawns an app's built server over stdio with plain `node`. */
export function spawnServer(app: ServerApp, args: string[] = [], options: SpawnOptions = {}): StdioPeer {
  return StdioPeer.spawn(process.execPath, [serverBin(app), ...args], options);
}

/**
 * Spawns an app's built server on its own data dir, with this process's environment minus the app's own
 * settings (`<APP>_*`, so a developer's shell cannot change what a test sees) plus `env`.
 */
export function spawnServerWithData(
  app: ServerApp,
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: SpawnOptions = {},
): StdioPeer {
  const prefix = `${app.toUpperCase()}_`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith(prefix)));
  return spawnServer(app, args, { ...options, env: { ...clean, CODE_CLUSTER_DATA_DIR: dataDir, ...env } });
}
