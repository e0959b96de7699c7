import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import catalog from './catalog.json' with { type: 'json' };

export type Server = (typeof catalog.servers)[number];
export const servers: readonly Server[] = catalog.servers;

/** The key of a server in a client's config: its app name (`satdt`), as the README's examples have it. */
export const entryName = (server: Server) => server.app;

/**
 * The absolute path of a server's installed bin: the package beside this installer (npm puts them side by
 * side; in the repository they are the workspace's apps), with symlinks resolved so the path stays valid.
 */
export function installedBin(server: Server): string | { error: string } {
  try {
    // The bundle is CommonJS: resolution starts next to this file.
    const manifest = realpathSync(createRequire(__filename).resolve(`${server.package}/package.json`));
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> };
    const bin = join(dirname(manifest), pkg.bin[server.bin]!);
    if (!existsSync(bin)) return { error: `${bin} is missing (build it: npm run build)` };
    return bin;
  } catch {
    return { error: `${server.package} is not installed beside code-cluster: npm install ${server.package}` };
  }
}

/** Whether a client's entry was written by this installer: it runs this server's own bin. */
export function isOurs(server: Server, entry: unknown): boolean {
  const args = (entry as { args?: unknown })?.args;
  return Array.isArray(args) && typeof args[0] === 'string' && basename(args[0]) === `${server.bin}.cjs`;
}
