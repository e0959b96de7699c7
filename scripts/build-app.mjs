#!/usr/bin/env node
// Bundles one MCP server app (run from its folder) into a single CommonJS file that plain `node` runs:
// dist/<app>-mcp.cjs. One file, no node_modules at run time, fast to load (see BENCHMARKS.md).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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

// zod's namespace re-exports its error messages in ~40 languages (a fifth of the bundle); the servers
// speak Spanish through their own messages (mcp-kit's validation.ts) and use zod's English otherwise.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'zod'}/v4/`)
        ? { path: resolve(args.resolveDir, '../locales/en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
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
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  // The storage seam reads import.meta.url only when it runs as ESM; in the bundle it uses require.
  logOverride: { 'empty-import-meta': 'silent' },
  metafile: true,
  // Native addons cannot live in a bundle: the app declares them and they load from node_modules. So does
  // libpg-query (academy on PostgreSQL): its WebAssembly file is read from next to its own module.
  external: ['better-sqlite3', 'libpg-query'],
  plugins: [withoutSatelliteWasm, zodEnglishOnly],
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
  // Built in memory, then wrapped in the launcher: the bin stays one file that plain `node` runs.
  const schemas = existsSync(resolve(appDir, 'src/tools')) ? await toolSchemas() : undefined;
  const define = schemas
    ? { ...options.define, __CODE_CLUSTER_TOOL_SCHEMAS__: JSON.stringify(schemas) }
    : options.define;
  const result = await build({ ...options, define, write: false, sourcemap: 'external' });
  mkdirSync(dirname(options.outfile), { recursive: true });
  for (const output of result.outputFiles) {
    if (output.path !== options.outfile) {
      writeFileSync(output.path, output.contents);
      continue;
    }
    // An app that declares better-sqlite3 keeps SQLite files: its launcher checks for a driver at start-up.
    const usesSqlite = Boolean({ ...pkg.dependencies, ...pkg.optionalDependencies }['better-sqlite3']);
    const program = `(function (exports, require, module, __filename, __dirname) {${output.text}\n})`;
    const launcher = readFileSync(new URL('./launcher.cjs', import.meta.url), 'utf8')
      .replace("'__PROGRAM__'", () => JSON.stringify(program))
      .replace('__PROGRAM_HASH__', createHash('sha256').update(program).digest('hex').slice(0, 16))
      .replace('__NAME__', binName)
      .replace('__SQLITE_SYSTEM__', usesSqlite ? binName.replace(/-mcp$/, '').toUpperCase() : '');
    writeFileSync(options.outfile, `#!/usr/bin/env node\n${launcher}`);
    chmodSync(options.outfile, 0o755);
    process.stderr.write(`built ${options.outfile} (${(launcher.length / 1024).toFixed(0)} KiB)\n`);
  }
}

/**
 * The JSON Schemas of every tool an MCP server app defines (one per file under src/tools, plus mcp-kit's
 * discovery tools), converted here once instead of at every start of the bin (mcp-kit's `describeTool` reads them).
 * A throwaway bundle of those modules runs next to the bin, so it resolves what the bin resolves.
 */
async function toolSchemas() {
  const toolsDir = resolve(appDir, 'src/tools');
  const files = readdirSync(toolsDir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const entry = [
    "import { convertToolSchemas, DISCOVERY_TOOLS } from '@code-cluster/mcp-kit';",
    ...files.map((f, i) => `import * as m${i} from ${JSON.stringify(join(toolsDir, f))};`),
    'const isTool = (v) => typeof v?.name === "string" && typeof v.handler === "function" && v.input;',
    `const modules = [${files.map((_, i) => `m${i}`).join(', ')}];`,
    'const tools = [...DISCOVERY_TOOLS, ...modules.flatMap((m) => Object.values(m).filter(isTool))];',
    'process.stdout.write(JSON.stringify(convertToolSchemas(tools)));',
  ].join('\n');
  const outfile = resolve(appDir, 'dist', `.${binName}-tool-schemas.cjs`);
  await build({
    ...options,
    entryPoints: undefined,
    stdin: { contents: entry, resolveDir: appDir, loader: 'js' },
    outfile,
    minify: false,
    sourcemap: false,
    legalComments: 'none',
    metafile: false,
  });
  try {
    return JSON.parse(execFileSync(process.execPath, [outfile], { encoding: 'utf8', maxBuffer: 64 << 20 }));
  } finally {
    rmSync(outfile, { force: true });
  }
}
