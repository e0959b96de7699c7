import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clients } from '../src/clients.js';
import { catalog, cleanEnv, listTools, spawnPeer, tempDir } from './helpers.js';
import { appDir, repoRoot } from './paths.js';

const CLI = join(repoRoot, 'packages/cli/dist/code-cluster.cjs');

/** Runs the built installer as a user would, with `home` as HOME and no XDG/APPDATA overrides. */
function cli(home: string, ...args: string[]) {
  const env = cleanEnv({ HOME: home });
  delete env.XDG_CONFIG_HOME;
  delete env.XDG_DATA_HOME;
  delete env.APPDATA;
  const result = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', cwd: home });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const bin = (app: string) => realpathSync(join(appDir(app), 'dist', `${app}-mcp.cjs`));
const desktopConfig = (home: string) => join(home, '.config', 'Claude', 'claude_desktop_config.json');
const vscodeConfig = (home: string) => join(home, '.config', 'Code', 'User', 'mcp.json');
const backups = (file: string) => readdirSync(dirname(file)).filter((n) => n.endsWith('.bak'));

function seed(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** A VS Code user config with comments, trailing commas, a one-line entry and another member. */
const VSCODE_BEFORE = `{
  // My servers
  "servers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }, // keep me
  },
  /* inputs stay too */
  "inputs": []
}
`;

const CLAUDE_BEFORE = `{
  "globalShortcut": "Ctrl+Space",
  "mcpServers": {
    "other": {
      "command": "npx",
      "args": ["-y", "other-mcp"]
    }
  }
}
`;

describe('code-cluster install / uninstall against real config files in a temporary HOME', () => {
  it('claude-desktop: writes every server with the absolute node and bin, and each entry starts', async () => {
    const home = tempDir('cli-home-');
    const run = cli(home, 'install', '--client', 'claude-desktop');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `${desktopConfig(home)}: added satdt, groundstation, hub, roverdt, lab, academy`,
    );
    const config = JSON.parse(readFileSync(desktopConfig(home), 'utf8'));
    expect(Object.keys(config.mcpServers)).toEqual(catalog.servers.map((s) => s.app));
    for (const server of catalog.servers) {
      expect(config.mcpServers[server.app]).toEqual({ command: process.execPath, args: [bin(server.app)] });
      // As a client starts it: from /, with nothing from this shell but a minimal PATH.
      const data = tempDir(`cli-data-${server.app}-`);
      const entry = config.mcpServers[server.app];
      const peer = spawnPeer(entry.command, entry.args, {
        cwd: '/',
        env: { PATH: '/usr/bin:/bin', HOME: home, CODE_CLUSTER_DATA_DIR: data },
      });
      expect((await listTools(peer)).map((t) => t.name)).toEqual(server.tools.map((t) => t.name));
    }
  });

  it('vscode (JSONC): keeps comments, trailing commas and the other entries byte for byte; uninstall restores the file', () => {
    const home = tempDir('cli-home-');
    const file = vscodeConfig(home);
    seed(file, VSCODE_BEFORE);
    const run = cli(home, 'install', '--client', 'vscode', '--servers', 'satdt,hub');
    expect(run.code, run.stderr).toBe(0);
    const entry = (app: string) =>
      [
        `    "${app}": {`,
        '      "type": "stdio",',
        `      "command": ${JSON.stringify(process.execPath)},`,
        '      "args": [',
        `        ${JSON.stringify(bin(app))}`,
        '      ]',
        '    },',
      ].join('\n');
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '{',
        '  // My servers',
        '  "servers": {',
        '    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" }, // keep me',
        entry('satdt'),
        entry('hub'),
        '  },',
        '  /* inputs stay too */',
        '  "inputs": []',
        '}',
        '',
      ].join('\n'),
    );
    // The backup is the file as it was, written before the change.
    const [backup] = backups(file);
    expect(readFileSync(join(dirname(file), backup!), 'utf8')).toBe(VSCODE_BEFORE);

    const removed = cli(home, 'uninstall', '--client', 'vscode');
    expect(removed.stdout).toContain('removed satdt, hub');
    expect(readFileSync(file, 'utf8')).toBe(VSCODE_BEFORE);
  });

  it('is idempotent: a second install changes nothing and writes no backup', () => {
    const home = tempDir('cli-home-');
    const file = desktopConfig(home);
    seed(file, CLAUDE_BEFORE);
    expect(cli(home, 'install', '--client', 'claude-desktop', '--servers', 'lab').code).toBe(0);
    const once = readFileSync(file, 'utf8');
    expect(backups(file)).toHaveLength(1);
    const again = cli(home, 'install', '--client', 'claude-desktop', '--servers', 'lab');
    expect(again.stdout).toContain('unchanged lab');
    expect(again.stdout).toContain('the file was not changed');
    expect(readFileSync(file, 'utf8')).toBe(once);
    expect(backups(file)).toHaveLength(1);
  });

  it('strict JSON stays strict (no trailing comma after an uninstall), and the other settings stay', () => {
    const home = tempDir('cli-home-');
    const file = desktopConfig(home);
    seed(file, CLAUDE_BEFORE);
    cli(home, 'install', '--client', 'claude-desktop', '--servers', 'satdt,academy');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config.globalShortcut).toBe('Ctrl+Space');
    expect(config.mcpServers.other).toEqual({ command: 'npx', args: ['-y', 'other-mcp'] });
    cli(home, 'uninstall', '--client', 'claude-desktop');
    expect(readFileSync(file, 'utf8')).toBe(CLAUDE_BEFORE);
  });

  it('never replaces or removes an entry it did not write, even under one of its names', () => {
    const home = tempDir('cli-home-');
    const file = desktopConfig(home);
    const foreign = CLAUDE_BEFORE.replace('"other"', '"hub"');
    seed(file, foreign);
    const run = cli(home, 'install', '--client', 'claude-desktop', '--servers', 'hub');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('already has a server "hub" that this installer did not write');
    expect(run.stderr).toContain('nothing was written');
    expect(readFileSync(file, 'utf8')).toBe(foreign);
    expect(backups(file)).toEqual([]);
    cli(home, 'uninstall', '--client', 'claude-desktop');
    expect(readFileSync(file, 'utf8')).toBe(foreign);
  });

  it('--dry-run prints the file it would write and writes nothing; a file that does not parse is left alone', () => {
    const home = tempDir('cli-home-');
    const file = vscodeConfig(home);
    seed(file, VSCODE_BEFORE);
    const run = cli(home, 'install', '--client', 'vscode', '--dry-run');
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('{\n  // My servers\n')).toBe(true);
    expect(run.stdout).toContain(`"args": [\n        ${JSON.stringify(bin('academy'))}`);
    expect(readFileSync(file, 'utf8')).toBe(VSCODE_BEFORE);
    expect(backups(file)).toEqual([]);

    seed(file, '{ "servers": { ');
    const broken = cli(home, 'install', '--client', 'vscode');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`cannot read ${file}`);
    expect(readFileSync(file, 'utf8')).toBe('{ "servers": { ');
  });

  it('claude-code and cursor, user and project scope, at their real locations', () => {
    const home = tempDir('cli-home-');
    const project = tempDir('cli-project-');
    expect(cli(home, 'install', '--client', 'claude-code', '--servers', 'satdt').code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers.satdt).toEqual({
      type: 'stdio',
      command: process.execPath,
      args: [bin('satdt')],
    });
    expect(
      cli(home, 'install', '--client', 'claude-code', '--project', project, '--servers', 'hub').code,
    ).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers)).toEqual([
      'hub',
    ]);
    expect(cli(home, 'install', '--client', 'cursor', '--servers', 'lab').code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8')).mcpServers.lab.args).toEqual([
      bin('lab'),
    ]);
    expect(
      cli(home, 'install', '--client', 'vscode', '--project', project, '--servers', 'roverdt').code,
    ).toBe(0);
    expect(JSON.parse(readFileSync(join(project, '.vscode', 'mcp.json'), 'utf8')).servers.roverdt.type).toBe(
      'stdio',
    );
    const desktop = cli(home, 'install', '--client', 'claude-desktop', '--project', project);
    expect(desktop.code).toBe(2);
    expect(desktop.stderr).toContain('Claude Desktop has no project configuration');
  });
});

describe('the config file of each client on each OS', () => {
  const place = (platform: NodeJS.Platform, env: NodeJS.ProcessEnv = {}) => ({ platform, home: '/h', env });
  it.each([
    ['claude-desktop', 'darwin', '/h/Library/Application Support/Claude/claude_desktop_config.json'],
    ['claude-desktop', 'linux', '/h/.config/Claude/claude_desktop_config.json'],
    ['vscode', 'darwin', '/h/Library/Application Support/Code/User/mcp.json'],
    ['vscode', 'linux', '/h/.config/Code/User/mcp.json'],
    ['cursor', 'darwin', '/h/.cursor/mcp.json'],
    ['claude-code', 'linux', '/h/.claude.json'],
  ] as const)('%s on %s: %s', (client, platform, expected) => {
    expect(clients[client].file(place(platform))).toBe(expected);
  });

  it('on Windows under %APPDATA%', () => {
    const windows = {
      platform: 'win32' as const,
      home: 'C:\\Users\\ana',
      env: { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' },
    };
    expect(clients['claude-desktop'].file(windows)).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\Claude\\claude_desktop_config.json',
    );
    expect(clients.vscode.file(windows)).toBe('C:\\Users\\ana\\AppData\\Roaming\\Code\\User\\mcp.json');
    expect(clients.cursor.file(windows)).toBe('C:\\Users\\ana\\.cursor\\mcp.json');
  });

  it('honours XDG_CONFIG_HOME on Linux', () => {
    expect(clients.vscode.file(place('linux', { XDG_CONFIG_HOME: '/x' }))).toBe('/x/Code/User/mcp.json');
  });
});

describe('code-cluster config, list, doctor and bad arguments', () => {
  it('config prints the snippet for the client and writes nothing', () => {
    const home = tempDir('cli-home-');
    const run = cli(home, 'config', '--client', 'cursor', '--servers', 'groundstation');
    expect(JSON.parse(run.stdout)).toEqual({
      mcpServers: { groundstation: { command: process.execPath, args: [bin('groundstation')] } },
    });
    expect(readdirSync(home)).toEqual([]);
  });

  it('list prints every server and every tool', () => {
    const run = cli(tempDir('cli-home-'), 'list');
    for (const server of catalog.servers) {
      expect(run.stdout).toContain(`${server.app}  ${server.bin} (${server.package} ${server.version})`);
      for (const tool of server.tools) expect(run.stdout).toContain(`  - ${tool.name}: ${tool.title}`);
    }
  });

  it('doctor starts every installed entry; a broken one is a problem with the command that fixes it', () => {
    const home = tempDir('cli-home-');
    cli(home, 'install', '--client', 'claude-desktop');
    // A generous limit: the test is about what doctor finds, not about how fast this machine is.
    const healthy = cli(home, 'doctor', '--timeout-ms', '60000');
    expect(healthy.code, healthy.stdout).toBe(0);
    for (const server of catalog.servers) {
      expect(healthy.stdout).toContain(
        `ok      Claude Desktop: ${server.app}: starts and lists ${server.tools.length} tools`,
      );
    }
    expect(healthy.stdout).toMatch(/ok {6}SQLite: (node:sqlite|better-sqlite3)/);
    expect(healthy.stdout).toContain(`data dir ${join(home, '.local/share/code-cluster')} is writable`);
    expect(healthy.stdout.trim().endsWith('all is well')).toBe(true);

    const file = desktopConfig(home);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.mcpServers.hub.args = [join(home, 'gone', 'hub-mcp.cjs')];
    config.mcpServers.lab.args = [bin('lab'), '--no-such-flag'];
    writeFileSync(file, JSON.stringify(config, null, 2));
    const sick = cli(home, 'doctor', '--timeout-ms', '60000');
    expect(sick.code).toBe(1);
    expect(sick.stdout).toContain(
      `PROBLEM Claude Desktop: hub: its bin ${join(home, 'gone', 'hub-mcp.cjs')} does not exist`,
    );
    expect(sick.stdout).toContain(
      'PROBLEM Claude Desktop: lab: exited with code 2: lab-mcp: unknown option --no-such-flag',
    );
    expect(sick.stdout).toContain('        fix: code-cluster install --client claude-desktop');
    expect(sick.stdout).toContain('2 problem(s)');
  });

  it('doctor gives a server that never answers --timeout-ms, then reports it', () => {
    const home = tempDir('cli-home-');
    // A bin of the right name (so it is one of ours) that reads stdin and never answers.
    const silent = join(home, 'silent', 'hub-mcp.cjs');
    seed(silent, 'process.stdin.resume();\n');
    seed(
      desktopConfig(home),
      JSON.stringify({ mcpServers: { hub: { command: process.execPath, args: [silent] } } }),
    );
    const run = cli(home, 'doctor', '--timeout-ms', '300');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'PROBLEM Claude Desktop: hub: no answer to initialize and tools/list within 300 ms',
    );
  });

  it.each([
    [['install'], 'install needs --client (claude-desktop, claude-code, vscode, cursor)'],
    [
      ['install', '--client', 'zed'],
      "invalid value for --client: expected one of claude-desktop, claude-code, vscode, cursor; got 'zed'",
    ],
    [
      ['install', '--client', 'cursor', '--servers', 'satdt,mars'],
      "invalid value for --servers: expected a comma-separated list of satdt, groundstation, hub, roverdt, lab, academy; got 'satdt,mars'",
    ],
    [['instal'], "unknown command 'instal'"],
    [['list', '--verbose'], 'unknown option --verbose'],
    [
      ['doctor', '--timeout-ms', 'soon'],
      "invalid value for --timeout-ms: expected an integer from 100 to 600000; got 'soon'",
    ],
  ])('%j exits 2: %s', (args, message) => {
    const run = cli(tempDir('cli-home-'), ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
