import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_URL, registryName } from '../../../scripts/lib/identity.mjs';
import {
  type CatalogServer,
  catalog,
  cleanEnv,
  listTools,
  node24Bin,
  node24Dir,
  packed,
  run,
  spawnPeer,
  tempDir,
} from './helpers.js';
import { appDir } from './paths.js';

const tarball = (server: CatalogServer) =>
  packed(`${server.package.replace('@', '').replace('/', '-')}-${server.version}.tgz`);

function tarballManifest(file: string): Record<string, unknown> {
  return JSON.parse(run('tar', ['-xzOf', file, 'package/package.json']));
}

describe('each server is a publishable npm package', () => {
  it.each(catalog.servers)(
    '$package: its tarball holds the bundled bin, its licence notes and package.json only',
    (server) => {
      const files = run('tar', ['-tzf', tarball(server)])
        .trim()
        .split('\n')
        .sort();
      expect(files).toEqual(
        [
          `package/dist/${server.bin}.cjs`,
          `package/dist/${server.bin}.cjs.LEGAL.txt`,
          'package/package.json',
        ].sort(),
      );
      // Stated, not implied by the list above: what must never ship.
      expect(files.filter((f) => /(^|\/)(test|src)\/|\.env|\.ts$/.test(f))).toEqual([]);
    },
  );

  it.each(catalog.servers)('$package: package.json says what npm and the registry need', (server) => {
    const pkg = tarballManifest(tarball(server));
    expect(pkg.private).toBeUndefined();
    expect(pkg.name).toBe(server.package);
    expect(pkg.bin).toEqual({ [server.bin]: `./dist/${server.bin}.cjs` });
    expect(pkg.license).toBe('Apache-2.0');
    expect(pkg.engines).toEqual({ node: '>=20.11' });
    expect(pkg.mcpName).toBe(registryName(server.bin));
    expect(pkg.repository).toEqual({
      type: 'git',
      url: `git+${REPOSITORY_URL}.git`,
      directory: `apps/${server.app}`,
    });
    expect(pkg.keywords).toEqual(expect.arrayContaining(['mcp', 'mcp-server']));
    // Everything is in the bundle: nothing to fetch but the optional SQLite addon, pinned to the workspace's,
    // and for academy libpg-query (its WebAssembly parser loads from node_modules, for PostgreSQL).
    expect(pkg.dependencies).toEqual(
      server.app === 'academy'
        ? {
            'libpg-query': JSON.parse(
              readFileSync(join(appDir('academy'), 'node_modules/libpg-query/package.json'), 'utf8'),
            ).version,
          }
        : undefined,
    );
    const workspaceSqlite = JSON.parse(
      readFileSync(join(appDir('hub'), 'node_modules/better-sqlite3/package.json'), 'utf8'),
    ).version;
    expect(pkg.optionalDependencies).toEqual(
      server.sqlite ? { 'better-sqlite3': workspaceSqlite } : undefined,
    );
  });
  it('@code-cluster/cli: its tarball holds the bundled installer, which depends on the six servers at its version', () => {
    const file = packed('code-cluster-cli-0.1.0.tgz');
    expect(run('tar', ['-tzf', file]).trim().split('\n').sort()).toEqual([
      'package/dist/code-cluster.cjs',
      'package/package.json',
    ]);
    const pkg = tarballManifest(file);
    expect(pkg.bin).toEqual({ 'code-cluster': './dist/code-cluster.cjs' });
    expect(pkg.private).toBeUndefined();
    expect(pkg.dependencies).toEqual(
      Object.fromEntries(catalog.servers.map((s) => [s.package, s.version]).sort()),
    );
  });
});

describe('installed with plain npm into an empty directory (no pnpm, no workspace)', () => {
  let dir: string;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'code-cluster-npm-'));
    // --omit=optional: better-sqlite3 compiles from source where no prebuilt binary can be had; the
    // servers run on node:sqlite without it, and a test below puts a built copy beside them.
    run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--omit=optional',
        '--loglevel=error',
        ...catalog.servers.map(tarball),
        packed('code-cluster-cli-0.1.0.tgz'),
      ],
      { cwd: dir, env: { ...process.env, npm_config_workspaces: 'false' } },
    );
  });

  it.each(catalog.servers)(
    'npx $bin answers initialize and tools/list on Node 24 (node:sqlite)',
    async (server) => {
      const data = tempDir(`npx-${server.app}-`);
      const env = cleanEnv({
        PATH: [node24Dir(), process.env.PATH].join(delimiter),
        CODE_CLUSTER_DATA_DIR: data,
      });
      const peer = spawnPeer('npx', ['--no-install', server.bin], { cwd: dir, env });
      const tools = await listTools(peer);
      expect(tools.map((t) => t.name)).toEqual(server.tools.map((t) => t.name));
      expect(peer.invalidStdoutLines).toEqual([]);
    },
  );

  it('a server with state and no SQLite driver refuses to start and names the fix; satdt needs none', async () => {
    // CODE_CLUSTER_SQLITE_DRIVER=better-sqlite3 makes the runtime's node:sqlite count as absent (Node 20).
    const env = cleanEnv({ CODE_CLUSTER_SQLITE_DRIVER: 'better-sqlite3' });
    const stateful = catalog.servers.filter((s) => s.sqlite);
    expect(stateful.map((s) => s.app)).toEqual(['groundstation', 'hub', 'roverdt', 'lab', 'academy']);
    for (const server of stateful) {
      const peer = spawnPeer(process.execPath, [join(dir, 'node_modules', server.package, server.binPath)], {
        env,
      });
      const exit = await peer.exited;
      expect(exit.code).toBe(1);
      expect(peer.stderr).toContain(`${server.bin}: cannot start: no SQLite driver`);
      expect(peer.stderr).toContain("Cannot find module 'better-sqlite3'");
      expect(peer.stderr).toContain(
        'fix: run it on Node 22.13 or newer, or install better-sqlite3 beside it',
      );
      expect(peer.stdoutLines).toEqual([]);
    }
    const satdt = spawnPeer(
      process.execPath,
      [join(dir, 'node_modules/@code-cluster/satdt-mcp/dist/satdt-mcp.cjs')],
      { env },
    );
    expect((await listTools(satdt)).length).toBeGreaterThan(0);
  });

  it('with better-sqlite3 installed beside them (the optional dependency), they run on Node 20 too', async () => {
    // The workspace's copy, built for this Node, stands in for what `npm install` compiles.
    const require = createRequire(join(appDir('hub'), 'package.json'));
    const addon = dirname(require.resolve('better-sqlite3/package.json'));
    const modules = join(dir, 'node_modules');
    cpSync(realpathSync(addon), join(modules, 'better-sqlite3'), { recursive: true, dereference: true });
    const addonRequire = createRequire(join(realpathSync(addon), 'package.json'));
    for (const dep of ['bindings', 'file-uri-to-path']) {
      cpSync(dirname(addonRequire.resolve(`${dep}/package.json`)), join(modules, dep), { recursive: true });
    }
    const data = tempDir('npm-bs3-');
    const env = cleanEnv({ CODE_CLUSTER_SQLITE_DRIVER: 'better-sqlite3', CODE_CLUSTER_DATA_DIR: data });
    const peer = spawnPeer(process.execPath, [join(modules, '.bin', 'hub-mcp')], { env });
    const hub = catalog.servers.find((s) => s.app === 'hub')!;
    expect((await listTools(peer)).map((t) => t.name)).toEqual(hub.tools.map((t) => t.name));
    // A write that reaches SQLite: the embedded hub stores the event.
    const reply = await peer.request('tools/call', {
      name: 'publicar_evento',
      arguments: { topico: 'pruebas.npm', tipo: 'prueba', datos: { ok: true } },
    });
    expect(reply.error).toBeUndefined();
    expect((reply.result as { isError?: boolean }).isError).not.toBe(true);
  });

  it('npx code-cluster install --client claude-desktop --dry-run prints a config whose commands start every server', async () => {
    const home = tempDir('npx-home-');
    // On Node 24 (as npx runs under it): the config then names that node, which has node:sqlite.
    const env = cleanEnv({ HOME: home, PATH: [node24Dir(), process.env.PATH].join(delimiter) });
    delete env.XDG_CONFIG_HOME;
    const config = JSON.parse(
      run('npx', ['--no-install', 'code-cluster', 'install', '--client', 'claude-desktop', '--dry-run'], {
        cwd: dir,
        env,
      }),
    );
    expect(Object.keys(config.mcpServers)).toEqual(catalog.servers.map((s) => s.app));
    for (const server of catalog.servers) {
      const { command, args } = config.mcpServers[server.app];
      expect(args).toEqual([realpathSync(join(dir, 'node_modules', server.package, server.binPath))]);
      expect(command).toBe(realpathSync(node24Bin()));
      // Exactly the printed command, as a client starts it: from / with a bare environment.
      const data = tempDir(`npx-data-${server.app}-`);
      const peer = spawnPeer(command, args, {
        cwd: '/',
        env: { PATH: '/usr/bin:/bin', HOME: home, CODE_CLUSTER_DATA_DIR: data },
      });
      expect((await listTools(peer)).map((t) => t.name)).toEqual(server.tools.map((t) => t.name));
    }
  });
});
