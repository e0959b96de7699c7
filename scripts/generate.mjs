#!/usr/bin/env node
// `npm run generate`: rewrites what is committed and derived from the servers' settings and tool
// definitions — the installer's catalog (packages/cli/src/catalog.json) and the README's install section —
// from the sources and the built bins, which it builds first (turbo: only what changed), since a catalog
// read from a stale bin is the drift the test would then find. The .mcpb manifests and registry entries
// are derived at `npm run pack` time. A drift test (packages/cli/test/drift.test.ts) fails when a
// committed copy differs from what this writes.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// pnpm from PATH or the one `npm run setup` put into .tools/; turbo runs each package's build with it.
const bins = [join(root, '.tools/node_modules/.bin'), join(root, 'node_modules/.bin')].filter(existsSync);
const env = { ...process.env, PATH: [...bins, process.env.PATH].join(delimiter) };
const built = spawnSync(
  'turbo',
  ['run', 'build', '--output-logs=errors-only', '--filter=./apps/*', '--filter=@code-cluster/testkit'],
  { cwd: root, env, stdio: 'inherit' },
);
if (built.status !== 0) {
  process.stderr.write('generate: the build failed; nothing was written\n');
  process.exit(1);
}

const { readmeSection } = await import('../packages/testkit/dist/readme.js');
const { buildCatalog, CATALOG_FILE, serializeCatalog } = await import('./lib/catalog.mjs');
const { renderInstallSection } = await import('./lib/readme-install.mjs');

const catalog = await buildCatalog();
writeFileSync(CATALOG_FILE, serializeCatalog(catalog));
process.env.UPDATE_README = '1';
readmeSection('install', renderInstallSection(catalog));
process.stderr.write(`wrote ${CATALOG_FILE} and the install section of README.md\n`);
