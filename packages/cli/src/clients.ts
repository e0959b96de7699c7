import { posix, win32 } from 'node:path';

/** The clients the installer writes to, in the order `--help` lists them. */
export const CLIENTS = ['claude-desktop', 'claude-code', 'vscode', 'cursor'] as const;
export type ClientId = (typeof CLIENTS)[number];

/** Where a config file lives: the OS, the user's home and environment, and a project for project scope. */
export interface Place {
  platform: NodeJS.Platform;
  home: string;
  env: NodeJS.ProcessEnv;
  project?: string | undefined;
}

/** How a server is started: what the client's entry says. */
export interface Launch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface Client {
  id: ClientId;
  label: string;
  /** The member of the config file that holds the servers. */
  key: 'mcpServers' | 'servers';
  /** The config file, or an error message when the client has no such scope. */
  file(place: Place): string | { error: string };
  entry(launch: Launch): Record<string, unknown>;
}

const pathOf = (platform: NodeJS.Platform) => (platform === 'win32' ? win32 : posix);

/** The per-user application-data directory: what Electron apps (Claude, VS Code) use on each OS. */
function appData(place: Place): string {
  const path = pathOf(place.platform);
  if (place.platform === 'darwin') return path.join(place.home, 'Library', 'Application Support');
  if (place.platform === 'win32') return place.env.APPDATA || path.join(place.home, 'AppData', 'Roaming');
  return place.env.XDG_CONFIG_HOME || path.join(place.home, '.config');
}

const withEnv = (launch: Launch) =>
  launch.env && Object.keys(launch.env).length > 0 ? { env: launch.env } : {};

export const clients: Record<ClientId, Client> = {
  'claude-desktop': {
    id: 'claude-desktop',
    label: 'Claude Desktop',
    key: 'mcpServers',
    file: (place) =>
      place.project
        ? { error: 'Claude Desktop has no project configuration: drop --project' }
        : pathOf(place.platform).join(appData(place), 'Claude', 'claude_desktop_config.json'),
    entry: (launch) => ({ command: launch.command, args: launch.args, ...withEnv(launch) }),
  },
  'claude-code': {
    id: 'claude-code',
    label: 'Claude Code',
    key: 'mcpServers',
    // User scope lives in ~/.claude.json beside Claude Code's other state; project scope in .mcp.json.
    file: (place) =>
      place.project
        ? pathOf(place.platform).join(place.project, '.mcp.json')
        : pathOf(place.platform).join(place.home, '.claude.json'),
    entry: (launch) => ({ type: 'stdio', command: launch.command, args: launch.args, ...withEnv(launch) }),
  },
  vscode: {
    id: 'vscode',
    label: 'VS Code',
    key: 'servers',
    file: (place) =>
      place.project
        ? pathOf(place.platform).join(place.project, '.vscode', 'mcp.json')
        : pathOf(place.platform).join(appData(place), 'Code', 'User', 'mcp.json'),
    entry: (launch) => ({ type: 'stdio', command: launch.command, args: launch.args, ...withEnv(launch) }),
  },
  cursor: {
    id: 'cursor',
    label: 'Cursor',
    key: 'mcpServers',
    file: (place) => pathOf(place.platform).join(place.project ?? place.home, '.cursor', 'mcp.json'),
    entry: (launch) => ({ command: launch.command, args: launch.args, ...withEnv(launch) }),
  },
};
