#!/usr/bin/env node
// Bundles one MCP server app (run from its folder) into a single CommonJS file that plain `node` runs:
// dist/<app>-mcp.cjs. One file, no node_modules at run time, fast to load (see BENCHMARKS.md).
import { spawn } from 'node:child_process';
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
  // Native addons cannot live in a bundle: the app declares them and they load from node_modules.
  external: ['better-sqlite3'],
  plugins: [withoutSatelliteWasm],
};

if (watch) {
  // `pnpm --silent dev`: rebuild on every change and (re)start the server on this process's stdio. Not
  // `node --watch`, which prints its own status lines on stdout and would corrupt the JSON-RPC stream.
  const args = process.argv.slice(3).filter((a) => a !== '--watch');
  let server;
  const restart = {
    name: 'restart-server',
    setup(b) {
      b.onEnd((result) => {
        if (result.errors.length > 0) return;
        server?.removeAllListeners('exit');
        server?.kill('SIGTERM');
        server = spawn(process.execPath, [options.outfile, ...args], { stdio: 'inherit' });
        // The server ends when its client closes stdin; dev mode ends with it.
        server.on('exit', (code) => process.exit(code ?? 0));
        process.stderr.write(`[dev] started ${basename(options.outfile)}\n`);
      });
    },
  };
  const ctx = await context({ ...options, plugins: [...options.plugins, restart] });
  await ctx.watch();
} else {
  const result = await build(options);
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  process.stderr.write(`built ${options.outfile} (${(bytes / 1024).toFixed(0)} KiB)\n`);
}
