// The one source of truth for installing the servers: what each server is (its package.json), what it
// takes (its settings: mcp-kit's common ones and the app's src/settings.ts, read from the TypeScript with
// zod's own JSON Schema export) and what it offers (tools and prompts, asked of the built bin over stdio,
// exactly as a client sees them with the default settings). Everything the packaging writes — the .mcpb
// manifests, the registry's server.json, the installer's snippets, the README's install section — is
// derived from this catalog, committed as packages/cli/src/catalog.json (a drift test regenerates it).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './node24.mjs';

/** The servers, in the order the README lists them. */
export const APPS = ['satdt', 'groundstation', 'hub', 'roverdt', 'lab', 'academy'];

export const CATALOG_FILE = join(root, 'packages/cli/src/catalog.json');

/**
 * Where the servers with state keep their SQLite files (packages/systems/src/storage/data-dir.ts): not a
 * flag of the server but an environment variable every system reads.
 */
const DATA_DIR_SETTING = {
  key: 'dataDir',
  env: 'CODE_CLUSTER_DATA_DIR',
  type: 'directory',
  description:
    'directory of the SQLite files of the embedded system, shared with every other client that runs this server (default: $XDG_DATA_HOME/code-cluster, i.e. ~/.local/share/code-cluster)',
  secret: false,
};

/** Reads the settings of one app from its sources, without starting it. */
async function readSettings(app) {
  const appDir = join(root, 'apps', app);
  const entry = `
    import { z } from 'zod';
    import { commonOptions } from '@code-cluster/mcp-kit';
    import { transportOptions } from '../../packages/mcp-kit/src/transport/http-options.ts';
    import { options } from './src/settings.ts';
    const transport = new Set(Object.keys(transportOptions));
    module.exports = Object.entries({ ...commonOptions, ...options }).map(([key, spec]) => ({
      key, spec, transport: transport.has(key),
      schema: z.toJSONSchema(spec.schema, { io: 'input', unrepresentable: 'any' }),
      // What the server runs with when the setting is not given (a switch's default is not in its schema).
      fallback: spec.schema.safeParse(undefined).data,
    }));
  `;
  const result = await build({
    stdin: { contents: entry, resolveDir: appDir, loader: 'ts', sourcefile: `${app}-settings.ts` },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    conditions: ['@code-cluster/source'],
    write: false,
    logLevel: 'error',
    logOverride: { 'empty-import-meta': 'silent' },
    // Only the workspace's TypeScript needs bundling; its dependencies load from the app's node_modules.
    plugins: [
      {
        name: 'dependencies-external',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@code-cluster/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(
    module,
    module.exports,
    createRequire(join(appDir, 'package.json')),
  );
  return module.exports.map((s) => describeSetting(s));
}

/** One setting as the packaging needs it: plain JSON, no zod. */
function describeSetting({ key, spec, transport, schema, fallback }) {
  const choices = schema.enum ?? schema.anyOf?.find((s) => s.enum)?.enum;
  const type = spec.boolean
    ? 'boolean'
    : schema.type === 'number' || schema.type === 'integer'
      ? 'number'
      : 'string';
  return {
    key,
    flag: `--${spec.flag}`,
    env: spec.env,
    type,
    ...(choices && !spec.boolean ? { choices } : {}),
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(schema.minimum !== undefined ? { min: schema.minimum } : {}),
    ...(schema.maximum !== undefined ? { max: schema.maximum } : {}),
    description: spec.description,
    // Credentials are the settings named for them (apiToken, operatorToken, httpToken), and the database
    // URLs, which may carry a password (databaseUrl, analyticsDatabaseUrl).
    secret: /Token$|[dD]atabaseUrl$/.test(key),
    // Transport settings (--transport http and its options) are for deployments, not for a client's config.
    ...(transport ? { transport: true } : {}),
  };
}

/** Starts the built bin with its default settings and asks for its tools and prompts. */
async function readSurface(app, bin) {
  const { StdioPeer } = await import('../../packages/testkit/dist/stdio-peer.js');
  const dataDir = mkdtempSync(join(tmpdir(), `catalog-${app}-`));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith(`${app.toUpperCase()}_`) && !k.startsWith('MCP_'),
    ),
  );
  const peer = StdioPeer.spawn(process.execPath, [bin], {
    env: { ...env, CODE_CLUSTER_DATA_DIR: dataDir, CODE_CLUSTER_CODE_CACHE: '0' },
  });
  try {
    await peer.initialize();
    const { result: toolList } = await peer.request('tools/list');
    const { result: promptList } = await peer
      .request('prompts/list')
      .catch(() => ({ result: { prompts: [] } }));
    const prompts = [];
    for (const prompt of promptList?.prompts ?? []) {
      prompts.push({ ...prompt, text: await promptText(peer, prompt) });
    }
    return {
      tools: toolList.tools.map((t) => ({
        name: t.name,
        title: t.title,
        description: t.description,
        readOnly: t.annotations?.readOnlyHint === true,
      })),
      prompts,
    };
  } finally {
    await peer.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A prompt's text with its arguments as the `${arguments.name}` placeholders of an MCPB manifest: the
 * server renders the prompt with those placeholders as values.
 */
async function promptText(peer, prompt) {
  const args = Object.fromEntries((prompt.arguments ?? []).map((a) => [a.name, `\${arguments.${a.name}}`]));
  const reply = await peer.request('prompts/get', { name: prompt.name, arguments: args });
  const messages = reply.result?.messages ?? [];
  const text = messages
    .map((m) => m.content?.text)
    .filter(Boolean)
    .join('\n\n');
  return text || prompt.description || prompt.name;
}

/** The whole catalog, from the sources and the built bins (run `pnpm build` first). */
export async function buildCatalog() {
  // One server after another would spend most of the time waiting for start-ups: all six at once.
  const servers = await Promise.all(APPS.map(describeServer));
  return { servers };
}

async function describeServer(app) {
  const pkg = JSON.parse(readFileSync(join(root, 'apps', app, 'package.json'), 'utf8'));
  const [binName, binPath] = Object.entries(pkg.bin)[0];
  const sqlite = Boolean(pkg.optionalDependencies?.['better-sqlite3']);
  const [settings, surface] = await Promise.all([
    readSettings(app),
    readSurface(app, join(root, 'apps', app, binPath)),
  ]);
  return {
    app,
    bin: binName,
    binPath: binPath.replace(/^\.\//, ''),
    package: pkg.name,
    version: pkg.version,
    mcpName: pkg.mcpName,
    description: pkg.description.replace(/^[a-z]+-mcp: /, ''),
    keywords: pkg.keywords,
    sqlite,
    settings: sqlite ? [...settings, DATA_DIR_SETTING] : settings,
    ...surface,
  };
}

/** The catalog as committed: stable JSON, two-space indent, final newline. */
export function serializeCatalog(catalog) {
  return `${JSON.stringify(catalog, null, 2)}\n`;
}

export function readCatalog() {
  return JSON.parse(readFileSync(CATALOG_FILE, 'utf8'));
}
