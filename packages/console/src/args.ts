import { parseArgs as parseNodeArgs } from 'node:util';
import { DEFAULT_PROTOCOL_VERSION } from './protocol.js';

/** Which server to talk to: one of the cluster's built apps, or any command that speaks MCP over stdio. */
export type TargetSpec = { kind: 'app'; app: string } | { kind: 'command'; command: string; args: string[] };

export interface ConsoleOptions {
  mode: 'scripted' | 'interactive' | 'help';
  target: TargetSpec;
  protocolVersion: string;
  showStderr: boolean;
  /** Scripted mode: also run the error demos. */
  errors: boolean;
  /** Scripted mode: print only the raw transcript, one JSON object per line. */
  json: boolean;
}

/** Bad command line: the message is shown with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

export const DEFAULT_SERVER = 'satdt';

export const USAGE = `code-console: shows an MCP server's JSON-RPC conversation, line by line

Usage:
  code-console [options] [--server <app>]          replay the course's session (default)
  code-console [options] -- <command> [args...]     same, against any stdio MCP server
  code-console -i [--server <app> | -- <command>]   interactive: type the messages yourself

Options:
  --server <app>        a built server of the cluster (default: ${DEFAULT_SERVER})
  --version <date>      protocol version to ask for in initialize (default: ${DEFAULT_PROTOCOL_VERSION})
  --show-stderr         interleave the server's stderr (dimmed); hidden by default
  --no-errors           scripted mode: skip the error demos
  --json                scripted mode: print only the raw transcript, one JSON object per line
  -i, --interactive     start the REPL instead of the scripted session
  -h, --help            show this help

Lines marked → are what the console sends, ← what the server answers.
Colour is used only when stdout is a terminal (NO_COLOR and FORCE_COLOR are honoured).
Exit code: 0 when every expectation held, 1 when one did not, 2 on a bad command line.`;

export function parseArgs(argv: readonly string[]): ConsoleOptions {
  const separator = argv.indexOf('--');
  const head = separator === -1 ? [...argv] : argv.slice(0, separator);
  const command = separator === -1 ? [] : argv.slice(separator + 1);

  let values: ReturnType<typeof parseHead>;
  try {
    values = parseHead(head);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }

  if (values.help) return { ...defaults(), mode: 'help' };

  const options: ConsoleOptions = {
    mode: values.interactive ? 'interactive' : 'scripted',
    target: { kind: 'app', app: values.server ?? DEFAULT_SERVER },
    protocolVersion: values.version ?? DEFAULT_PROTOCOL_VERSION,
    showStderr: values['show-stderr'] ?? false,
    errors: !(values['no-errors'] ?? false),
    json: values.json ?? false,
  };

  if (separator !== -1) {
    const [program, ...args] = command;
    if (program === undefined || program === '') throw new UsageError('`--` must be followed by a command');
    if (values.server !== undefined) throw new UsageError('give either --server or `-- <command>`, not both');
    options.target = { kind: 'command', command: program, args };
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(options.protocolVersion)) {
    throw new UsageError(
      `--version takes a date like ${DEFAULT_PROTOCOL_VERSION}, not "${options.protocolVersion}"`,
    );
  }
  if (options.mode === 'interactive' && options.json) throw new UsageError('--json is for the scripted mode');
  if (options.mode === 'interactive' && !options.errors)
    throw new UsageError('--no-errors is for the scripted mode');
  return options;
}

function parseHead(head: string[]) {
  return parseNodeArgs({
    args: head,
    strict: true,
    allowPositionals: false,
    options: {
      server: { type: 'string' },
      version: { type: 'string' },
      'show-stderr': { type: 'boolean' },
      'no-errors': { type: 'boolean' },
      json: { type: 'boolean' },
      interactive: { type: 'boolean', short: 'i' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
}

function defaults(): ConsoleOptions {
  return {
    mode: 'scripted',
    target: { kind: 'app', app: DEFAULT_SERVER },
    protocolVersion: DEFAULT_PROTOCOL_VERSION,
    showStderr: false,
    errors: true,
    json: false,
  };
}
