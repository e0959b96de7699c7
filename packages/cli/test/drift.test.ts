import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeSection } from '@code-cluster/testkit';
import { expect, it } from 'vitest';
import { buildCatalog, serializeCatalog } from '../../../scripts/lib/catalog.mjs';
import { renderInstallSection } from '../../../scripts/lib/readme-install.mjs';
import { catalog } from './helpers.js';
import { appDir, repoRoot } from './paths.js';

it('the committed catalog is what the settings sources and the built servers say (npm run generate)', async () => {
  const fresh = serializeCatalog(await buildCatalog());
  expect(readFileSync(join(repoRoot, 'packages/cli/src/catalog.json'), 'utf8')).toBe(fresh);
});

it('README’s install section is rendered from the catalog (UPDATE_README=1 or npm run generate)', () => {
  const section = renderInstallSection(catalog);
  expect(readmeSection('install', section)).toBe(section);
});

it('README’s first screen shows the four ways to install, shortest first', () => {
  const lines = readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n');
  const firstScreen = lines.slice(0, 30).join('\n');
  const ways = [
    '1. **One command',
    '2. **One click in Claude Desktop',
    "3. **npx in the client's config",
    '4. **From the MCP Registry',
  ];
  const positions = ways.map((way) => firstScreen.indexOf(way));
  expect(positions.every((p) => p > 0)).toBe(true);
  expect([...positions].sort((a, b) => a - b)).toEqual(positions);
});

it.each(catalog.servers)('$bin --help lists every setting of the catalog, flag and variable', (server) => {
  const help = spawnSync(process.execPath, [join(appDir(server.app), server.binPath), '--help'], {
    encoding: 'utf8',
  });
  for (const setting of server.settings.filter((s) => 'flag' in s)) {
    expect(help.stderr).toContain(`--${(setting as { flag: string }).flag.replace(/^--/, '')}`);
    expect(help.stderr).toContain(`[env ${setting.env}]`);
  }
});

it('code-cluster --help names every client and server it knows', () => {
  const help = spawnSync(process.execPath, [join(repoRoot, 'packages/cli/dist/code-cluster.cjs'), '--help'], {
    encoding: 'utf8',
  });
  expect(help.stdout).toContain('claude-desktop | claude-code | vscode | cursor');
  expect(help.stdout).toContain(`default all: ${catalog.servers.map((s) => s.app).join(',')}`);
});
