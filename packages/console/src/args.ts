import { parseArgs as parseNodeArgs } from 'node:util';
import { DEFAULT_PROTOCOL_VERSION } from './protocol.js';

/** Which server to talk to: one of the cluster's built apps, or any command that speaks MCP over stdio. */
export type TargetSpec = { kind: 'app'; app: string } | { kind: 'command'; command: string; args: string[] };

/** The console's commands; `scripted` is the course's session on one server, `interactive` the REPL. */
export type Mode = 'episode' | 'catalog' | 'scripted' | 'interactive' | 'help';

export interface ConsoleOptions {
  mode: Mode;
  /** The one server of the course session and the REPL. */
  target: TargetSpec;
  /** catalog: the servers to merge; empty means every built server of the cluster. */
  servers: TargetSpec[];
  protocolVersion: string;
  showStderr: boolean;
  /** Course session: also run the error demos. */
  errors: boolean;
  /** Print only machine-readable output: the raw transcript (or, for catalog, the catalog) as JSON lines. */
  json: boolean;
  /** episode and catalog: CODE_CLUSTER_DATA_DIR for the servers; unset: a fresh temporary one. */
  dataDir?: string;
}

/** Bad command line: the message is shown with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

export const DEFAULT_SERVER = 'satdt';

/** Command names as typed; `course` is the `scripted` mode. */
const COMMANDS = { episode: 'episode', catalog: 'catalog', course: 'scripted' } as const;
type CommandName = keyof typeof COMMANDS;

export const USAGE = `code-console: a small MCP host that shows the JSON-RPC conversation with the cluster's servers

Usage:
  code-console [episode] [options]                      the federated episode (the default)
  code-console catalog [options] [--server <app>]... [-- <command> [args...]]
                                                        the servers' tools merged into one catalog
  code-console course [options] [--server <app>]        replay the course's session on one server
  code-console course [options] -- <command> [args...]  same, against any stdio MCP server
  code-console -i [--server <app> | -- <command>]       interactive: type the messages yourself

The episode starts satdt-mcp, groundstation-mcp and hub-mcp (one process and one session each), merges
their tools into one catalog, then: satelite_info → proximos_pases → estado_estacion → agendar_contacto for
the first pass → publicar_evento on contactos.<station>, while a second hub-mcp process, subscribed to that
topic, receives notifications/resources/updated and reads the event.

Without a command, --server, --no-errors or \`-- <command>\` select the course session (as before).

Options:
  --data-dir <dir>      episode, catalog: the servers' CODE_CLUSTER_DATA_DIR; by default a fresh temporary
                        directory, removed at the end, so a run never touches your data
  --server <app>        course, -i: the server (default: ${DEFAULT_SERVER}); catalog: repeatable, default every
                        built server (\`catalog -- <command>\` checks another server against all of them)
  --version <date>      protocol version to ask for in initialize (default: ${DEFAULT_PROTOCOL_VERSION})
  --show-stderr         interleave the servers' stderr (dimmed); hidden by default
  --no-errors           course: skip the error demos
  --json                print only JSON lines: the raw transcript (catalog: one line per tool)
  -i, --interactive     start the REPL on one server instead of a scripted run
  -h, --help            show this help

Lines marked → are what the console sends, ← what a server answers; [label] names the server.
Colour is used only when stdout is a terminal (NO_COLOR and FORCE_COLOR are honoured).
Exit code: 0 when every expectation held, 1 when one did not (or two servers offer the same tool name),
2 on a bad command line.`;

export function parseArgs(argv: readonly string[]): ConsoleOptions {
  const separator = argv.indexOf('--');
  const head = separator === -1 ? [...argv] : argv.slice(0, separator);
  const command = separator === -1 ? [] : argv.slice(separator + 1);

  let parsed: ReturnType<typeof parseHead>;
  try {
    parsed = parseHead(head);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;

  if (values.help) return { ...defaults(), mode: 'help' };

  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const named = positionals[0];
  if (named !== undefined && !(named in COMMANDS)) {
    throw new UsageError(`unknown command "${named}"; commands: ${Object.keys(COMMANDS).join(', ')}`);
  }
  const servers = values.server ?? [];
  const oneServerFlags =
    servers.length > 0 || separator !== -1 || values['no-errors'] === true || values.interactive === true;
  let mode: Mode = named
    ? COMMANDS[named as CommandName]
    : // No command: the flags of one server keep meaning what they meant before the episode existed.
      oneServerFlags
      ? 'scripted'
      : 'episode';
  if (values.interactive) {
    if (mode !== 'scripted') throw new UsageError(`-i is not for the ${commandOf(mode)} command`);
    mode = 'interactive';
  }

  let extra: TargetSpec | undefined;
  if (separator !== -1) {
    const [program, ...args] = command;
    if (program === undefined || program === '') throw new UsageError('`--` must be followed by a command');
    extra = { kind: 'command', command: program, args };
  }

  const options: ConsoleOptions = {
    mode,
    target: { kind: 'app', app: DEFAULT_SERVER },
    servers: [],
    protocolVersion: values.version ?? DEFAULT_PROTOCOL_VERSION,
    showStderr: values['show-stderr'] ?? false,
    errors: !(values['no-errors'] ?? false),
    json: values.json ?? false,
    ...(values['data-dir'] !== undefined ? { dataDir: values['data-dir'] } : {}),
  };

  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.protocolVersion)) {
    throw new UsageError(
      `--version takes a date like ${DEFAULT_PROTOCOL_VERSION}, not "${options.protocolVersion}"`,
    );
  }
  if (options.dataDir === '') throw new UsageError('--data-dir needs a directory');

  switch (mode) {
    case 'episode':
      if (servers.length > 0 || extra) {
        throw new UsageError(
          'the episode always runs satdt, groundstation and hub; --server and `--` are for course, catalog and -i',
        );
      }
      if (!options.errors) throw new UsageError('--no-errors is for the course session');
      break;
    case 'catalog':
      if (!options.errors) throw new UsageError('--no-errors is for the course session');
      options.servers = [
        ...servers.map((app): TargetSpec => ({ kind: 'app', app })),
        ...(extra ? [extra] : []),
      ];
      break;
    case 'scripted':
    case 'interactive':
      if (servers.length > 1) throw new UsageError('give one --server; several are for the catalog command');
      if (extra && servers.length > 0)
        throw new UsageError('give either --server or `-- <command>`, not both');
      if (extra) options.target = extra;
      else if (servers[0] !== undefined) options.target = { kind: 'app', app: servers[0] };
      if (options.dataDir !== undefined)
        throw new UsageError('--data-dir is for the episode and catalog commands');
      if (mode === 'interactive' && options.json) throw new UsageError('--json is for the scripted mode');
      if (mode === 'interactive' && !options.errors)
        throw new UsageError('--no-errors is for the scripted mode');
      break;
  }
  return options;
}

function commandOf(mode: Mode): string {
  return Object.entries(COMMANDS).find(([, m]) => m === mode)?.[0] ?? mode;
}

function parseHead(head: string[]) {
  return parseNodeArgs({
    args: head,
    strict: true,
    allowPositionals: true,
    options: {
      server: { type: 'string', multiple: true },
      version: { type: 'string' },
      'data-dir': { type: 'string' },
      'show-stderr': { type: 'boolean' },
      'no-errors': { type: 'boolean' },
      json: { type: 'boolean' },
      interactive: { type: 'boolean', short: 'i' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function defaults(): ConsoleOptions {
  return {
    mode: 'episode',
    target: { kind: 'app', app: DEFAULT_SERVER },
    servers: [],
    protocolVersion: DEFAULT_PROTOCOL_VERSION,
    showStderr: false,
    errors: true,
    json: false,
  };
}
