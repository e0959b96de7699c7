#!/usr/bin/env node
// Where satdt-mcp's cold start goes: `node scripts/bench/coldstart.mjs` (build apps/satdt first).
//  1. bundle composition: KiB of dist/satdt-mcp.cjs per package (esbuild metafile, same options as
//     scripts/build-app.mjs);
//  2. phases of loading the bundle in a fresh process, median of N: Node's own bootstrap, read, compile
//     (V8 parse of the whole file), evaluate (module bodies + the synchronous part of start-up);
//     once more with a V8 code cache, to show what a compile cache would save.
// Informational, like run.mjs; nothing here asserts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CACHE_DIR, withoutSatelliteWasm } from './lib/passes.mjs';
import { median } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const appDir = join(root, 'apps/satdt');
const bundle = join(appDir, 'dist/satdt-mcp.cjs');
const runs = process.argv.includes('--quick') ? 5 : 11;

async function composition() {
  const result = await build({
    entryPoints: [join(appDir, 'src/main.ts')],
    outfile: join(CACHE_DIR, 'composition.cjs'),
    write: false,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    conditions: ['@code-cluster/source'],
    mainFields: ['module', 'main'],
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    metafile: true,
    plugins: [withoutSatelliteWasm],
  });
  const output = Object.values(result.metafile.outputs)[0];
  const groups = new Map();
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
    let key;
    if (!pkg)
      key = `workspace: ${path
        .replace(/^(\.\.\/)+/, '')
        .split('/')
        .slice(0, 2)
        .join('/')}`;
    else if (pkg[1] === 'zod') key = pkg[2].includes('/locales/') ? 'zod (locales)' : 'zod';
    else key = pkg[1];
    groups.set(key, (groups.get(key) ?? 0) + bytesInOutput);
  }
  // Who pulls what in lazily: a dynamic import() is still bundled (one CommonJS file), so it is parsed.
  const lazy = [];
  for (const [path, input] of Object.entries(result.metafile.inputs)) {
    for (const imp of input.imports) {
      if (imp.kind === 'dynamic-import')
        lazy.push(`${path.replace(/^(\.\.\/)+/, '')} → ${imp.path.replace(/^(\.\.\/)+/, '')}`);
    }
  }
  return { total: output.bytes, groups: [...groups].sort((a, b) => b[1] - a[1]), lazy };
}

function phases(extra = []) {
  const child = spawnSync(process.execPath, [join(here, 'lib/phases.cjs'), bundle, ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  const line = child.stderr.split('\n').find((l) => l.startsWith('PHASES '));
  if (!line) throw new Error(`no phases reported:\n${child.stderr}`);
  return JSON.parse(line.slice('PHASES '.length));
}

const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
const ms = (v) => `${v.toFixed(1)} ms`;

const comp = await composition();
console.log(`dist/satdt-mcp.cjs: ${kib(comp.total)}`);
for (const [name, bytes] of comp.groups.slice(0, 12)) {
  console.log(
    `  ${kib(bytes).padStart(9)}  ${((100 * bytes) / comp.total).toFixed(0).padStart(3)}%  ${name}`,
  );
}
console.log('  bundled although loaded lazily (dynamic import):');
for (const line of comp.lazy) console.log(`    ${line}`);

mkdirSync(CACHE_DIR, { recursive: true });
const cacheFile = join(CACHE_DIR, 'satdt-mcp.v8cache');
rmSync(cacheFile, { force: true });
phases(['--code-cache', cacheFile]); // writes the cache
const plain = [];
const cached = [];
for (let i = 0; i < runs; i++) {
  plain.push(phases());
  cached.push(phases(['--code-cache', cacheFile]));
}
rmSync(cacheFile, { force: true });
const row = (label, samples) => {
  const m = (key) => median(samples.map((s) => s[key]));
  const total = m('boot') + m('read') + m('compile') + m('evaluate');
  console.log(
    `${label.padEnd(18)} node bootstrap ${ms(m('boot'))}  read ${ms(m('read'))}  compile ${ms(m('compile'))}  ` +
      `evaluate ${ms(m('evaluate'))}  ≈ ${ms(total)}`,
  );
};
console.log(`\nloading the bundle, median of ${runs} fresh processes (stdin closed):`);
row('as shipped', plain);
row('with V8 code cache', cached);
if (cached.some((s) => s.cacheRejected)) console.log('  (V8 rejected the code cache in some runs)');
