// The MCP Inspector CLI 2.x (@modelcontextprotocol/inspector, pinned in scripts/clients/package.json),
// on the Node 24 binary (it needs Node >= 22.19). Every operation is one `inspector --cli` run, as a user
// would type it: a new connection (over stdio, a new server process on the same data dir) that negotiates
// with `--protocol-era auto` (the server/discover probe, then initialize). tools/list runs with --strict:
// any error-severity schema portability problem fails it (exit 6); warnings are counted.
import { spawn } from 'node:child_process';
import { driverOptions, report, runScenario } from '../lib/scenario.mjs';

const options = driverOptions();
const argv = process.argv.slice(2);
const node24 = argv[argv.indexOf('--inspector-node') + 1];
const cli = argv[argv.indexOf('--inspector') + 1];

const common = ['--cli', '--protocol-era', 'auto', '--connect-timeout', '30000'];
function target() {
  if (options.transport !== 'stdio') return ['--server-url', options.url];
  const env = Object.entries(options.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  return [...env, '--', options.command, ...options.args];
}

/** One CLI run, as a user would type it: its exit code and what it printed. */
function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(node24, [cli, ...common, ...args, ...target()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A run with `--format json`: the parsed result, or a rejection with the CLI's own error envelope. */
async function inspect(args) {
  const { code, stdout, stderr } = await run(['--format', 'json', ...args]);
  let parsed;
  try {
    parsed = JSON.parse(stdout);
  } catch {}
  if (code === 0 && parsed?.result) return { result: parsed.result, stderr };
  const envelope = parsed?.error ?? stderr.split('\n').find((l) => l.startsWith('{"error"'));
  throw new Error(`inspector exited ${code}: ${JSON.stringify(envelope ?? stderr.slice(-400))}`);
}

/** A run whose answer is NDJSON (the --app-info probe): its parsed lines. */
async function inspectLines(args) {
  const { code, stdout, stderr } = await run(args);
  const lines = stdout.split('\n').filter((l) => l.startsWith('{'));
  // Exit 2 means "no tool has an app", a verdict the scenario judges, not a failure of the run.
  if ((code === 0 || code === 2) && lines.length > 0) return lines.map((l) => JSON.parse(l));
  throw new Error(`inspector --app-info exited ${code}: ${stderr.slice(-400) || stdout.slice(-400)}`);
}

async function connect() {
  const { result } = await inspect(['--method', 'initialize']);
  return {
    negotiated: result.protocolVersion,
    capabilities: result.capabilities,
    connectNote: 'server/discover probe, then initialize (--protocol-era auto)',
    toolsNote: undefined,
    async listTools() {
      const { result: listed, stderr } = await inspect(['--method', 'tools/list', '--strict']);
      const summary = /(\d+) errors?, (\d+) warnings?/.exec(stderr);
      if (summary && summary[1] !== '0') throw new Error(`--strict: ${summary[0]}`);
      this.toolsNote = summary ? `--strict: ${summary[0]}` : '--strict: no schema portability problems';
      return listed.tools;
    },
    listResources: async () => (await inspect(['--method', 'resources/list'])).result.resources,
    listTemplates: async () =>
      (await inspect(['--method', 'resources/templates/list'])).result.resourceTemplates,
    listPrompts: async () => (await inspect(['--method', 'prompts/list'])).result.prompts,
    callTool: async (name, args) =>
      (
        await inspect([
          '--method',
          'tools/call',
          '--tool-name',
          name,
          '--tool-args-json',
          JSON.stringify(args),
        ])
      ).result,
    readResource: async (uri) => (await inspect(['--method', 'resources/read', '--uri', uri])).result,
    // The Inspector's MCP Apps probe: advertises the UI extension, lists the tools and reads each one's
    // ui:// resource; one NDJSON line per tool.
    appInfo: () => inspectLines(['--method', 'tools/list', '--app-info', '--advertise-apps']),
    getPrompt: async (name, args) =>
      (
        await inspect([
          '--method',
          'prompts/get',
          '--prompt-name',
          name,
          '--prompt-args',
          ...Object.entries(args).map(([k, v]) => `${k}=${v}`),
        ])
      ).result,
    close: async () => {},
  };
}

try {
  await runScenario(
    {
      can: {
        complete: 'the CLI offers no completion/complete method',
        subscribe: 'its --cli methods do not include resources/subscribe',
        progress: 'a CLI run prints only the final result',
        cancel: 'a CLI run cannot cancel its call',
        pin: 'the CLI has no option for the protocol version (it asks for its newest, 2025-11-25)',
        'probe views':
          options.transport === 'stateless'
            ? 'a --stateless server does not keep the capabilities a client offered at initialize, so it offers views to no one (docs/http.md)'
            : true,
      },
      connect,
    },
    options.scenario,
    options.server,
  );
} catch (error) {
  report('driver', false, error?.stack ?? String(error));
}
process.exit(0);
