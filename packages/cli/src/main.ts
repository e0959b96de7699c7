import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { CLIENTS, type ClientId, clients, type Launch, type Place } from './clients.js';
import { type Change, ConfigError, planRemove, planSet, write } from './config-file.js';
import { doctor } from './doctor.js';
import { DEFAULT_PROBE_TIMEOUT_MS } from './probe.js';
import { entryName, installedBin, isOurs, type Server, servers } from './servers.js';
import { VERSION } from './version.js';

const COMMANDS = {
  install: 'merge the servers into the client’s config file (a backup of it first)',
  uninstall: 'remove the servers this installer wrote from the client’s config file',
  config: 'print the client’s config snippet instead of writing it',
  doctor: 'check Node, SQLite, the data dir and every installed entry (each started for real)',
  list: 'print the servers and their tools',
} as const;
type Command = keyof typeof COMMANDS;

/** Generated from the commands, the clients and the catalog: it cannot drift from what the CLI does. */
export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length)) + 2;
  return [
    `code-cluster ${VERSION}: installs the CO.DE cluster's MCP servers into an MCP client`,
    '',
    'Usage: code-cluster <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, what]) => `  ${name.padEnd(width)}${what}`),
    '',
    'Options:',
    `  --client <name>     ${CLIENTS.join(' | ')} (install, uninstall, config)`,
    `  --servers <list>    comma-separated, default all: ${servers.map(entryName).join(',')}`,
    '  --project <dir>     the project’s config (.mcp.json, .vscode/mcp.json, .cursor/mcp.json), not the user’s',
    '  --dry-run           install, uninstall: print the file as it would be written, write nothing',
    `  --timeout-ms <n>    doctor: how long each server has to answer initialize and tools/list (default ${DEFAULT_PROBE_TIMEOUT_MS})`,
    '  --help, -h          show this help',
    '  --version, -v       print the version',
    '',
  ].join('\n');
}

class UsageError extends Error {}

interface Options {
  command: Command;
  client?: ClientId;
  servers: Server[];
  project?: string;
  dryRun: boolean;
  timeoutMs: number;
}

function parseArgs(argv: string[]): Options | 'help' | 'version' {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return 'help';
  if (argv.includes('--version') || argv.includes('-v')) return 'version';
  const [command, ...rest] = argv;
  if (!(command! in COMMANDS)) {
    throw new UsageError(`unknown command '${command}': expected one of ${Object.keys(COMMANDS).join(', ')}`);
  }
  const options: Options = {
    command: command as Command,
    servers: [...servers],
    dryRun: false,
    timeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
  };
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? rest[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`option ${flag} needs a value`);
      return v;
    };
    if (flag === '--dry-run') options.dryRun = true;
    else if (flag === '--client') {
      const client = value();
      if (!(CLIENTS as readonly string[]).includes(client)) {
        throw new UsageError(
          `invalid value for --client: expected one of ${CLIENTS.join(', ')}; got '${client}'`,
        );
      }
      options.client = client as ClientId;
    } else if (flag === '--servers') {
      const names = value()
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const known = servers.map(entryName);
      const unknown = names.filter((n) => !known.includes(n));
      if (unknown.length > 0 || names.length === 0) {
        throw new UsageError(
          `invalid value for --servers: expected a comma-separated list of ${known.join(', ')}; got '${names.join(',')}'`,
        );
      }
      options.servers = servers.filter((s) => names.includes(entryName(s)));
    } else if (flag === '--project') options.project = resolve(value());
    else if (flag === '--timeout-ms') {
      const given = value();
      const ms = Number(given);
      if (!Number.isInteger(ms) || ms < 100 || ms > 600_000) {
        throw new UsageError(
          `invalid value for --timeout-ms: expected an integer from 100 to 600000; got '${given}'`,
        );
      }
      options.timeoutMs = ms;
    } else throw new UsageError(`unknown option ${flag} (see --help)`);
  }
  if (['install', 'uninstall', 'config'].includes(options.command) && !options.client) {
    throw new UsageError(`${options.command} needs --client (${CLIENTS.join(', ')})`);
  }
  return options;
}

function place(project?: string): Place {
  return { platform: process.platform, home: homedir(), env: process.env, project };
}

/** How a client starts a server: this Node by absolute path (clients start servers in / with a bare PATH). */
function launchOf(server: Server): Launch {
  const bin = installedBin(server);
  if (typeof bin !== 'string') throw new ConfigError(bin.error);
  return { command: process.execPath, args: [bin] };
}

function configFile(clientId: ClientId, project: string | undefined): string {
  const file = clients[clientId].file(place(project));
  if (typeof file !== 'string') throw new UsageError(file.error);
  return file;
}

const owns = (name: string, current: unknown) => {
  const server = servers.find((s) => entryName(s) === name);
  return server !== undefined && isOurs(server, current);
};

function report(change: Change, dryRun: boolean, out: NodeJS.WritableStream): void {
  if (dryRun) {
    out.write(change.after);
    return;
  }
  const { written, backup } = write(change);
  const parts = [
    change.added.length ? `added ${change.added.join(', ')}` : '',
    change.updated.length ? `updated ${change.updated.join(', ')}` : '',
    change.removed.length ? `removed ${change.removed.join(', ')}` : '',
    change.unchanged.length ? `unchanged ${change.unchanged.join(', ')}` : '',
  ].filter(Boolean);
  out.write(`${change.file}: ${parts.join('; ') || 'nothing to do'}\n`);
  if (written && backup) out.write(`backup of the previous file: ${backup}\n`);
  if (!written) out.write('the file was not changed\n');
}

async function main(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed === 'help') {
    process.stdout.write(helpText());
    return 0;
  }
  if (parsed === 'version') {
    process.stdout.write(`code-cluster ${VERSION}\n`);
    return 0;
  }
  const { command, client, project, dryRun } = parsed;
  const chosen = parsed.servers;
  if (command === 'list') {
    for (const server of servers) {
      process.stdout.write(
        `${entryName(server)}  ${server.bin} (${server.package} ${server.version}): ${server.description}\n`,
      );
      for (const tool of server.tools) process.stdout.write(`  - ${tool.name}: ${tool.title}\n`);
    }
    return 0;
  }
  if (command === 'doctor') {
    const findings = await doctor(place(project), parsed.timeoutMs);
    for (const f of findings) {
      process.stdout.write(`${f.ok ? 'ok     ' : 'PROBLEM'} ${f.what}\n`);
      if (f.fix) process.stdout.write(`        fix: ${f.fix}\n`);
    }
    const problems = findings.filter((f) => !f.ok).length;
    process.stdout.write(problems === 0 ? 'all is well\n' : `${problems} problem(s)\n`);
    return problems === 0 ? 0 : 1;
  }
  const spec = clients[client!];
  if (command === 'config') {
    const entries = Object.fromEntries(chosen.map((s) => [entryName(s), spec.entry(launchOf(s))]));
    process.stdout.write(`${JSON.stringify({ [spec.key]: entries }, null, 2)}\n`);
    return 0;
  }
  const file = configFile(client!, project);
  if (command === 'install') {
    const entries = Object.fromEntries(chosen.map((s) => [entryName(s), spec.entry(launchOf(s))]));
    report(planSet(file, spec.key, entries, owns), dryRun, process.stdout);
    return 0;
  }
  report(planRemove(file, spec.key, chosen.map(entryName), owns), dryRun, process.stdout);
  return 0;
}

// `code-cluster list | head` closes stdout early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`code-cluster: ${error.message}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
