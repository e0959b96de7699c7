#!/usr/bin/env node
// `npm run pack`: everything a user installs, into dist-packages/ (or --out DIR):
//   <package>-<version>.tgz   each server's npm package and the installer's (`pnpm pack`, plain npm installs them)
//   <bin>-<version>.mcpb      each server as a one-click bundle for Claude Desktop (`mcpb pack`)
//   <bin>.server.json         each server's MCP Registry entry (with the sha256 of its .mcpb)
// It builds the workspace first (turbo: cached when nothing changed) unless --no-build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCatalog } from './lib/catalog.mjs';
import { iconPng } from './lib/icon.mjs';
import { mcpbManifest, serverJson } from './lib/install-meta.mjs';
import { root } from './lib/node24.mjs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = resolve(outIndex === -1 ? join(root, 'dist-packages') : args[outIndex + 1]);
const log = (line) => process.stderr.write(`[pack] ${line}\n`);

function pnpm() {
  const local = join(root, '.tools', 'node_modules', '.bin', 'pnpm');
  return spawnSync('pnpm', ['--version']).status === 0 ? 'pnpm' : local;
}

function must(command, argv, options = {}) {
  const result = spawnSync(command, argv, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    log(`${command} ${argv.join(' ')} failed:\n${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.exit(1);
  }
  return result.stdout;
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

if (!args.includes('--no-build')) {
  must(
    pnpm(),
    ['exec', 'turbo', 'run', 'build', '--filter=@code-cluster/cli...', '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

/** `pnpm pack` rewrites the workspace's `workspace:` and `catalog:` versions into real ones. */
function npmTarball(dir) {
  const report = JSON.parse(must(pnpm(), ['pack', '--pack-destination', out, '--json'], { cwd: dir }));
  return report.filename;
}

/**
 * One .mcpb: the manifest, the icon, the server's bundled bin and its start entry. No node_modules: the
 * bundle runs on Claude Desktop's own Node (24), whose node:sqlite the servers with state use.
 */
function mcpbBundle(server) {
  const stage = join(out, '.mcpb', server.bin);
  mkdirSync(join(stage, 'server'), { recursive: true });
  const dist = join(root, 'apps', server.app, 'dist');
  for (const file of [`${server.bin}.cjs`, `${server.bin}.cjs.LEGAL.txt`]) {
    copyFileSync(join(dist, file), join(stage, 'server', file));
  }
  writeFileSync(
    join(stage, 'server', 'index.cjs'),
    [
      '// The start of this bundle. A host passes optional settings left blank as empty variables (some as',
      '// the raw user_config placeholder); the server would read those as values, so they are dropped',
      "// and the server's own default applies.",
      "'use strict';",
      'for (const [name, value] of Object.entries(process.env)) {',
      "  if (value === '' || /^\\$\\{user_config\\.[^}]*\\}$/.test(value)) delete process.env[name];",
      '}',
      `require('./${server.bin}.cjs');`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(stage, 'icon.png'), iconPng(server.app));
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(mcpbManifest(server), null, 2)}\n`);
  const mcpb = join(root, 'node_modules', '.bin', 'mcpb');
  must(mcpb, ['validate', join(stage, 'manifest.json')]);
  const file = join(out, `${server.bin}-${server.version}.mcpb`);
  must(mcpb, ['pack', stage, file]);
  rmSync(stage, { recursive: true, force: true });
  return file;
}

const catalog = readCatalog();
for (const server of catalog.servers) {
  const tarball = npmTarball(join(root, 'apps', server.app));
  const mcpb = mcpbBundle(server);
  const entry = serverJson(server, { mcpbSha256: sha256(mcpb) });
  writeFileSync(join(out, `${server.bin}.server.json`), `${JSON.stringify(entry, null, 2)}\n`);
  log(
    `${server.bin}: ${tarball.replace(`${out}/`, '')}, ${mcpb.replace(`${out}/`, '')}, ${server.bin}.server.json`,
  );
}
rmSync(join(out, '.mcpb'), { recursive: true, force: true });
const cli = join(root, 'packages', 'cli');
if (existsSync(join(cli, 'dist'))) log(`installer: ${npmTarball(cli).replace(`${out}/`, '')}`);
log(`wrote ${out}`);
