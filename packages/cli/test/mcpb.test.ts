import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CatalogServer,
  catalog,
  listTools,
  node24Bin,
  packed,
  run,
  spawnPeer,
  tempDir,
} from './helpers.js';
import { repoRoot } from './paths.js';

const mcpbCli = join(repoRoot, 'node_modules', '.bin', 'mcpb');

interface UserConfigField {
  type: string;
  title: string;
  description: string;
  default?: unknown;
  sensitive?: boolean;
}

interface Manifest {
  manifest_version: string;
  name: string;
  version: string;
  icon: string;
  server: {
    type: string;
    entry_point: string;
    mcp_config: { command: string; args: string[]; env: Record<string, string> };
  };
  tools: Array<{ name: string; description: string }>;
  prompts: Array<{ name: string; arguments: string[]; text: string }>;
  compatibility: { runtimes: { node: string } };
  user_config: Record<string, UserConfigField>;
}

/** The bundle unzipped into a fresh directory, as a host installs it. */
function unpacked(server: CatalogServer): { dir: string; manifest: Manifest } {
  const dir = tempDir(`mcpb-${server.app}-`);
  run('unzip', ['-q', packed(`${server.bin}-${server.version}.mcpb`), '-d', dir]);
  return { dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Starts the bundle exactly as its manifest says, the way Claude Desktop does: `node` is the host's own
 * (Node 24), `${__dirname}` the bundle's directory, each `${user_config.x}` the user's value, else the
 * field's default, else empty (a blank optional field); from `/`, with a minimal PATH.
 */
function startAsManifestSays(dir: string, manifest: Manifest, values: Record<string, string>) {
  const substitute = (text: string) =>
    text.replace(/\$\{__dirname\}/g, dir).replace(/\$\{user_config\.([a-z_]+)\}/g, (_, key: string) => {
      if (key in values) return values[key]!;
      const fallback = manifest.user_config[key]?.default;
      return fallback === undefined ? '' : String(fallback);
    });
  const { command, args, env } = manifest.server.mcp_config;
  expect(command).toBe('node');
  const home = tempDir('mcpb-home-');
  return spawnPeer(node24Bin(), args.map(substitute), {
    cwd: '/',
    env: {
      PATH: '/usr/bin:/bin',
      HOME: home,
      ...Object.fromEntries(Object.entries(env).map(([name, value]) => [name, substitute(value)])),
    },
  });
}

describe.each(catalog.servers)('the .mcpb of $bin', (server) => {
  it('passes `mcpb validate` and holds the manifest, the icon and the server: no node_modules, no addon', () => {
    const { dir, manifest } = unpacked(server);
    expect(run(mcpbCli, ['validate', join(dir, 'manifest.json')])).toContain(
      'Manifest schema validation passes',
    );
    expect(filesUnder(dir)).toEqual(
      [
        'icon.png',
        'manifest.json',
        `server/${server.bin}.cjs`,
        `server/${server.bin}.cjs.LEGAL.txt`,
        'server/index.cjs',
      ].sort(),
    );
    const icon = readFileSync(join(dir, manifest.icon));
    expect(icon.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(manifest.manifest_version).toBe('0.3');
    expect(manifest.server.type).toBe('node');
    expect(manifest.server.entry_point).toBe('server/index.cjs');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: MCPB's placeholder, which the host substitutes.
    expect(manifest.server.mcp_config.args).toEqual(['${__dirname}/server/index.cjs']);
    expect(manifest.version).toBe(server.version);
    expect(manifest.compatibility.runtimes.node).toBe(server.sqlite ? '>=22.13.0' : '>=20.11.0');
  });

  it('its user_config is the server’s settings: one field per variable the server reads', () => {
    const { manifest } = unpacked(server);
    const installable = server.settings.filter((s) => !('transport' in s));
    expect(Object.keys(manifest.server.mcp_config.env).sort()).toEqual(installable.map((s) => s.env).sort());
    const fields = manifest.user_config;
    expect(fields.read_only).toMatchObject({ type: 'boolean', default: false });
    expect(fields.api_url).toMatchObject({ type: 'string' });
    expect(fields.api_url?.default).toBeUndefined();
    expect(fields.api_token).toMatchObject({ type: 'string', sensitive: true });
    expect(fields.data_dir?.type).toBe(server.sqlite ? 'directory' : undefined);
    const sensitive = Object.entries(fields)
      .filter(([, f]) => f.sensitive)
      .map(([k]) => k);
    // Every credential the server reads, and nothing else: its own API token, the URL of its store on
    // PostgreSQL (it may carry a password; academy's analytics one too), groundstation's operator
    // credential, lab's token for the academy whose roster it checks.
    const credentials: Record<string, string[]> = {
      groundstation: ['api_token', 'database_url', 'operator_token'],
      lab: ['api_token', 'database_url', 'academy_api_token'],
      roverdt: ['api_token', 'database_url'],
      academy: ['api_token', 'database_url', 'analytics_database_url'],
    };
    expect(sensitive).toEqual(credentials[server.app] ?? ['api_token']);
    if (server.app === 'groundstation') {
      expect(fields.scope).toMatchObject({ type: 'string', default: 'consulta' });
      expect(fields.scope?.description).toMatch(/'consulta'.*'operador'/);
    }
  });

  it('started exactly as its manifest says on Node 24, it lists the manifest’s tools and prompts', async () => {
    const { dir, manifest } = unpacked(server);
    const data = tempDir(`mcpb-data-${server.app}-`);
    const peer = startAsManifestSays(dir, manifest, server.sqlite ? { data_dir: data } : {});
    const tools = await listTools(peer);
    expect(tools.map((t) => ({ name: t.name, description: t.description }))).toEqual(manifest.tools);
    const prompts = await peer.request('prompts/list');
    expect((prompts.result as { prompts: Array<{ name: string }> }).prompts.map((p) => p.name)).toEqual(
      manifest.prompts.map((p) => p.name),
    );
    expect(peer.invalidStdoutLines).toEqual([]);
  });

  it.runIf(server.sqlite && server.app !== 'roverdt')(
    'on Node 24 its embedded system keeps its SQLite files (node:sqlite) in the data_dir the user picked',
    async () => {
      const { dir, manifest } = unpacked(server);
      const data = tempDir(`mcpb-db-${server.app}-`);
      const peer = startAsManifestSays(dir, manifest, { data_dir: data });
      const tools = (await listTools(peer)) as Array<{ name: string; inputSchema: { required?: string[] } }>;
      // A reading tool without required arguments: the first request opens the embedded system.
      const read = tools.find(
        (t) => !t.inputSchema.required?.length && server.tools.find((c) => c.name === t.name)?.readOnly,
      );
      const reply = await peer.request('tools/call', { name: read!.name, arguments: {} });
      expect((reply.result as { isError?: boolean }).isError).not.toBe(true);
      expect(readdirSync(data, { recursive: true }).some((f) => String(f).endsWith('.db'))).toBe(true);
    },
  );

  it('a value set in user_config reaches the server: read_only=true leaves only the reading tools', async () => {
    const { dir, manifest } = unpacked(server);
    const data = tempDir(`mcpb-ro-${server.app}-`);
    const peer = startAsManifestSays(dir, manifest, {
      read_only: 'true',
      ...(server.sqlite ? { data_dir: data } : {}),
    });
    const tools = await listTools(peer);
    expect(tools.map((t) => t.name)).toEqual(server.tools.filter((t) => t.readOnly).map((t) => t.name));
  });
});
