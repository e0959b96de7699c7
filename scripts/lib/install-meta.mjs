// What each way of installing a server says about it, derived from the catalog (scripts/lib/catalog.mjs):
// the .mcpb manifest (MCPB 0.3) and the MCP Registry's server.json. Nothing here is written by hand per
// server: a new setting or tool appears in both by rebuilding the catalog.
import { AUTHOR, LICENSE, mcpbUrl, REPOSITORY_URL, registryName } from './identity.mjs';

export const MCPB_MANIFEST_VERSION = '0.3';
export const SERVER_SCHEMA_URL =
  'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** node:sqlite without a flag: what the servers with state need when no better-sqlite3 ships beside them. */
export const NODE_SQLITE_RANGE = '>=22.13.0';
export const NODE_RANGE = '>=20.11.0';

/** The settings a client's configuration may set: all but the transport's (a client speaks stdio). */
export function installSettings(server) {
  return server.settings.filter((s) => !s.transport);
}

const ACRONYMS = { api: 'API', url: 'URL', ms: '(ms)', mcp: 'MCP', dir: 'directory' };

/** `readOnly` → `read_only` (MCPB user_config keys). */
export function configKey(setting) {
  return setting.key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** `readOnly` → `Read only`, `apiUrl` → `API URL`. */
export function settingTitle(setting) {
  const words = configKey(setting)
    .split('_')
    .map((w) => ACRONYMS[w] ?? w);
  const title = words.join(' ');
  return title.charAt(0).toUpperCase() + title.slice(1);
}

function choicesNote(setting) {
  const listed = setting.choices?.every((choice) => setting.description.includes(choice));
  return setting.choices && !listed ? ` One of: ${setting.choices.join(', ')}.` : '';
}

/**
 * The .mcpb manifest of a server. Started as `node ${__dirname}/server/index.cjs`: that entry drops the
 * variables of optional fields left blank (hosts pass them as '' or as the raw placeholder), then runs the
 * server's own bin. Every variable the server reads comes from one user_config field.
 */
export function mcpbManifest(server) {
  const settings = installSettings(server);
  const userConfig = {};
  const env = {};
  for (const setting of settings) {
    const key = configKey(setting);
    userConfig[key] = {
      type: setting.type === 'directory' ? 'directory' : setting.type,
      title: settingTitle(setting),
      description: `${setting.description}.${choicesNote(setting)}`,
      required: false,
      ...(setting.default !== undefined ? { default: setting.default } : {}),
      ...(setting.min !== undefined ? { min: setting.min } : {}),
      ...(setting.max !== undefined ? { max: setting.max } : {}),
      ...(setting.secret ? { sensitive: true } : {}),
    };
    env[setting.env] = `\${user_config.${key}}`;
  }
  return {
    $schema: 'https://raw.githubusercontent.com/anthropics/mcpb/main/dist/mcpb-manifest-v0.3.schema.json',
    manifest_version: MCPB_MANIFEST_VERSION,
    name: server.bin,
    display_name: server.bin,
    version: server.version,
    description: server.description,
    long_description: longDescription(server),
    author: AUTHOR,
    repository: { type: 'git', url: REPOSITORY_URL },
    homepage: REPOSITORY_URL,
    documentation: `${REPOSITORY_URL}#readme`,
    support: `${REPOSITORY_URL}/issues`,
    icon: 'icon.png',
    server: {
      type: 'node',
      entry_point: 'server/index.cjs',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: MCPB's placeholder, which the host substitutes.
      mcp_config: { command: 'node', args: ['${__dirname}/server/index.cjs'], env },
    },
    tools: server.tools.map((t) => ({ name: t.name, description: t.description })),
    prompts: server.prompts.map((p) => ({
      name: p.name,
      description: p.description,
      arguments: (p.arguments ?? []).map((a) => a.name),
      text: p.text,
    })),
    keywords: server.keywords,
    license: LICENSE,
    compatibility: {
      platforms: ['darwin', 'win32', 'linux'],
      runtimes: { node: server.sqlite ? NODE_SQLITE_RANGE : NODE_RANGE },
    },
    user_config: userConfig,
  };
}

function longDescription(server) {
  const tools = server.tools.map((t) => `- \`${t.name}\`: ${t.title ?? t.description}`).join('\n');
  const storage = server.sqlite
    ? 'Its embedded system keeps its data in SQLite files (Node’s built-in `node:sqlite`, no native addon) under the data directory.'
    : 'Its embedded system keeps no files.';
  return [
    `${server.description}.`,
    '',
    `Runs its embedded reference system in process unless a remote API URL is set. ${storage} Nothing leaves the machine except requests to the remote system you configure.`,
    '',
    `Tools with the default settings (read-only mode hides the writing ones):`,
    '',
    tools,
  ].join('\n');
}

/** The `environmentVariables` of a registry package: one per setting a client may set. */
function environmentVariables(server) {
  return installSettings(server).map((setting) => ({
    name: setting.env,
    description: `${setting.description}.${choicesNote(setting)}`,
    isRequired: false,
    isSecret: setting.secret,
    format: setting.type === 'directory' ? 'filepath' : setting.type,
    ...(setting.default !== undefined ? { default: String(setting.default) } : {}),
    ...(setting.choices ? { choices: setting.choices } : {}),
  }));
}

/**
 * The MCP Registry entry of a server: its npm package (run with npx), its .mcpb (with the sha256 of the
 * file built beside it) and, for Streamable HTTP deployments, a remote whose URL the deployer fills in.
 */
export function serverJson(server, { mcpbSha256 }) {
  const environment = environmentVariables(server);
  return {
    $schema: SERVER_SCHEMA_URL,
    name: registryName(server.bin),
    title: server.bin,
    description: truncate(server.description, 100),
    version: server.version,
    repository: { url: REPOSITORY_URL, source: 'github', subfolder: `apps/${server.app}` },
    websiteUrl: `${REPOSITORY_URL}#readme`,
    packages: [
      {
        registryType: 'npm',
        registryBaseUrl: 'https://registry.npmjs.org',
        identifier: server.package,
        version: server.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables: environment,
      },
      {
        registryType: 'mcpb',
        identifier: mcpbUrl(server.bin, server.version),
        version: server.version,
        fileSha256: mcpbSha256,
        transport: { type: 'stdio' },
      },
    ],
    remotes: [
      {
        type: 'streamable-http',
        url: 'https://{host}/mcp',
        variables: {
          host: {
            description: `host (and port) of your deployment of ${server.bin} --transport http (docs/http.md), e.g. mcp.example.org`,
            isRequired: true,
          },
        },
        headers: [
          {
            name: 'Authorization',
            description: 'Bearer <MCP_HTTP_TOKEN of the deployment>',
            isRequired: true,
            isSecret: true,
            value: 'Bearer {token}',
            variables: {
              token: { description: 'the deployment’s MCP_HTTP_TOKEN', isRequired: true, isSecret: true },
            },
          },
        ],
      },
    ],
  };
}

function truncate(text, max) {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
