#!/usr/bin/env node
// Bundles one MCP server app (run from its folder) into a single CommonJS file that plain `node` runs:
// dist/<app>-mcp.cjs. One file, no node_modules at run time, fast to load (see BENCHMARKS.md).
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { build, context } from 'esbuild';

const appDir = process.cwd();
const pkg = JSON.parse(readFileSync(resolve(appDir, 'package.json'), 'utf8'));
const binName = Object.keys(pkg.bin ?? {})[0] ?? `${basename(appDir)}-mcp`;
const watch = process.argv.includes('--watch');

// satellite.js 7 re-exports a WebAssembly build from its entry with a top-level await, which a CommonJS
// bundle cannot hold. The twin uses only the JavaScript SGP4, so that re-export is replaced by nothing.
const withoutSatelliteWasm = {
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

const options = {
  entryPoints: [resolve(appDir, 'src/main.ts')],
  outfile: resolve(appDir, 'dist', `${binName}.cjs`),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Workspace packages are bundled from their TypeScript sources.
  conditions: ['@code-cluster/source'],
  mainFields: ['module', 'main'],
  minify: true,
  keepNames: false,
  sourcemap: 'linked',
  legalComments: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  metafile: true,
  plugins: [withoutSatelliteWasm],
};

if (watch) {
  const ctx = await context(options);
  await ctx.watch();
  process.stderr.write(`watching ${pkg.name}\n`);
} else {
  const result = await build(options);
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  process.stderr.write(`built ${options.outfile} (${(bytes / 1024).toFixed(0)} KiB)\n`);
}
