// The twin itself: whole-catalog pass prediction, timed in a fresh Node process. The satellite twin's
// domain (packages/systems/src/satdt/domain) is bundled from its TypeScript sources at bench time with the
// same esbuild options the apps ship with (scripts/build-app.mjs), so the code timed is the code that runs.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { cleanEnv } from './subject.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
export const CACHE_DIR = resolve(here, '../.cache');
const BUNDLE = join(CACHE_DIR, 'satdt-domain.cjs');
const WORKER = join(here, 'passes-worker.mjs');

// Copied from scripts/build-app.mjs (which builds on import, so it cannot be imported): satellite.js 7
// re-exports a WebAssembly build with a top-level await that a CommonJS bundle cannot hold; the twin uses
// only the JavaScript SGP4.
export const withoutSatelliteWasm = {
  name: 'without-satellite-wasm',
  setup(b) {
    b.onResolve({ filter: /^\.\/wasm\/index\.js$/ }, (args) =>
      args.importer.includes(`${'satellite.js'}/dist/`)
        ? { path: 'satellite-wasm', namespace: 'empty' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'empty' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/**
 * Bundles the domain (and the shipped TLE catalog) to scripts/bench/.cache/satdt-domain.cjs, a temporary
 * file: removeDomainBundle() deletes it again (Biome would otherwise lint the minified bundle).
 */
export async function buildDomainBundle() {
  mkdirSync(CACHE_DIR, { recursive: true });
  // Keeps git (and Biome, which follows git's ignore files) away from the generated bundle.
  writeFileSync(join(CACHE_DIR, '.gitignore'), '*\n');
  const satdt = join(root, 'packages/systems/src/satdt');
  await build({
    stdin: {
      contents: [
        `export { loadCatalog, findPassesForCatalog } from ${JSON.stringify(join(satdt, 'domain/index.ts'))};`,
        `export { CATALOG_TLE } from ${JSON.stringify(join(satdt, 'catalog-data.ts'))};`,
      ].join('\n'),
      resolveDir: satdt,
      sourcefile: 'bench-satdt-domain.ts',
      loader: 'ts',
    },
    outfile: BUNDLE,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    conditions: ['@code-cluster/source'],
    mainFields: ['module', 'main'],
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    plugins: [withoutSatelliteWasm],
  });
  return BUNDLE;
}

export function removeDomainBundle() {
  rmSync(BUNDLE, { force: true });
}

/**
 * Runs the worker in a child process: `runs` timed calls of findPassesForCatalog after `warmups`.
 * Resolves with { times: number[] (ms), satellites, passes, errors, loadCatalogMs }.
 */
export function runPassesBench({ runs, warmups, station, fromMs, hours }) {
  const input = JSON.stringify({ bundle: BUNDLE, runs, warmups, station, fromMs, hours });
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [WORKER, input], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: cleanEnv(),
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      out += text;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`passes worker exited with code ${code}`));
      else resolvePromise(JSON.parse(out));
    });
  });
}
