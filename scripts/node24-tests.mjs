#!/usr/bin/env node
// Runs the tests of the SQLite-backed code on Node 24, where the storage seam (and academy's query child)
// use node:sqlite instead of better-sqlite3: the runtime Claude Desktop's one-click bundles bring. The
// project builds and runs its main suite on Node 20; this adds the other driver path. Builds nothing.
//
//   node scripts/node24-tests.mjs
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { node24, root } from './lib/node24.mjs';

const log = (message) => process.stderr.write(`[node24] ${message}\n`);
const node = node24(log);
const vitest = join(root, 'node_modules/vitest/vitest.mjs');
const targets = ['packages/systems', 'apps/hub', 'apps/groundstation', 'apps/academy'];

let failed = false;
for (const target of targets) {
  log(`${target}: vitest on ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}`);
  const result = spawnSync(node, [vitest, 'run'], { cwd: join(root, target), stdio: 'inherit' });
  if (result.status !== 0) {
    log(`${target}: failed (exit ${result.status})`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
