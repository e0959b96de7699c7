// The README's install section (between <!-- install --> and <!-- /install -->), rendered from the
// catalog: the four ways to install, shortest first, and what each server is called in each of them.
import { registryName } from './identity.mjs';
import { installSettings, NODE_SQLITE_RANGE } from './install-meta.mjs';

const CLI_PACKAGE = '@code-cluster/cli';

function settingsCell(server) {
  return installSettings(server)
    .filter((s) => !s.env.startsWith('MCP_'))
    .map(
      (s) => `\`${s.env}\`${s.choices ? ` (${s.choices.join(' \\| ')})` : ''}${s.secret ? ' (secret)' : ''}`,
    )
    .join(', ');
}

export function renderInstallSection(catalog) {
  const [first] = catalog.servers;
  const common = installSettings(first)
    .filter((s) => s.env.startsWith('MCP_'))
    .map((s) => `\`${s.env}\``)
    .join(', ');
  const rows = catalog.servers.map(
    (s) =>
      `| \`${s.app}\` | \`${s.package}\` | \`${s.bin}-${s.version}.mcpb\` | \`${registryName(s.bin)}\` | ${settingsCell(s)} |`,
  );
  return [
    'Four ways, shortest first. Each needs only Node (the servers with state use its built-in `node:sqlite`',
    `from Node ${NODE_SQLITE_RANGE.replace('>=', '')}; on Node 20 npm adds better-sqlite3, an optional dependency).`,
    '',
    `1. **One command writes your client's config**: \`npx ${CLI_PACKAGE} install --client claude-desktop\``,
    '   (or `claude-code`, `vscode`, `cursor`; `--servers satdt,hub` for some, `--project DIR` for a',
    "   project's config, `--dry-run` to see the file first). It keeps your other servers and comments, backs",
    '   the file up, and `uninstall` removes only its own entries; `code-cluster doctor` starts each one.',
    '2. **One click in Claude Desktop**: open a server’s `.mcpb` bundle; it asks for its settings (data',
    '   directory, read-only, remote API URL and token) and runs on Claude Desktop’s own Node.',
    "3. **npx in the client's config**, for any client:",
    '   ```json',
    `   { "mcpServers": { "${first.app}": { "command": "npx", "args": ["-y", "${first.package}"] } } }`,
    '   ```',
    '4. **From the MCP Registry**: clients that browse it find each server by its registry name; its',
    '   `server.json` lists the npm package, the `.mcpb` (with its sha256) and a Streamable HTTP remote.',
    '',
    `From a clone, \`npm run pack\` builds all of it into \`dist-packages/\`: the npm tarballs (servers and`,
    `installer), the \`.mcpb\` bundles and the \`server.json\` entries; \`npm run cli -- install --client …\``,
    "runs the installer on the workspace's builds.",
    '',
    `Every server takes ${common} (see Configuration) and its own settings:`,
    '',
    '| server | npm package | bundle | registry name | its own settings (environment) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    "This section, the bundles' manifests, the registry entries and the installer's snippets are all derived",
    "from the servers' settings and tool definitions (`npm run generate`); a test fails when they drift.",
  ].join('\n');
}
