import { createInterface } from 'node:readline';
import type { ConsoleOptions } from './args.js';
import type { ConsoleIo } from './io.js';
import { initializeParams, resultOf, textBlocks, toolSummaries } from './protocol.js';
import { Printer } from './render.js';
import { Session } from './session.js';
import { colorEnabled, createStyle } from './style.js';
import { resolveTarget } from './targets.js';

export const REPL_HELP = `Commands (nothing is sent unless you ask, so you can break the rules on purpose):
  init [version]         send initialize (default version: the --version option)
  initialized            send notifications/initialized
  list                   tools/list
  call <tool> [json]     tools/call, e.g. call proximos_pases {"norad_id":25544,"estacion":"orbiteye-mx"}
  ping                   ping
  resources              resources/list and resources/templates/list
  prompts                prompts/list
  raw <line>             send a line verbatim, e.g. raw {bad  (→ -32700) or raw {"jsonrpc":"2.0","id":9}  (→ -32600)
  {…} or […]             a line that starts with { or [ (a pasted JSON-RPC message) is sent verbatim, as with raw
  stderr                 show what the server wrote to stderr so far
  help                   this text
  quit                   close the server's stdin and show how it exits (also Ctrl-D)`;

/** How long `raw` waits for an answer before concluding that none is coming. */
const RAW_REPLY_WAIT_MS = 1_000;

/** A REPL over one server; resolves with the exit code (0 when the server exited cleanly at the end). */
export async function runRepl(options: ConsoleOptions, io: ConsoleIo): Promise<number> {
  const target = resolveTarget(options.target);
  const style = createStyle(colorEnabled(io.stdout, io.env));
  const printer = new Printer({ out: io.stdout, style, json: false });
  const session = Session.start(target, printer, { showStderr: options.showStderr });
  const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const rl = createInterface({ input: io.stdin, output: io.stdout, terminal, prompt: `${target.label}> ` });
  rl.on('SIGINT', () => rl.close());

  printer.line(`Connected to ${[target.command, ...target.args].join(' ')}. Type "help" for the commands.`);
  let serverGone = false;
  let quitting = false;
  session.gone.catch((error: Error) => {
    if (quitting) return;
    serverGone = true;
    printer.line(style.red(`${error.message}; leaving.`));
    rl.close();
  });

  rl.prompt();
  for await (const line of rl) {
    // Input from a pipe is not echoed; show it after the prompt so the transcript reads like a session.
    if (!terminal) io.stdout.write(`${line}\n`);
    const trimmed = line.trim();
    const [command = '', ...rest] = trimmed.split(/\s+/);
    const argument = trimmed.slice(command.length).trim();
    if (command === 'quit' || command === 'exit') break;
    // A pasted JSON-RPC message (or a broken one) goes out as typed: the commands never start with { or [.
    const pasted = trimmed.startsWith('{') || trimmed.startsWith('[');
    try {
      await execute(pasted ? 'raw' : command, pasted ? trimmed : argument, rest, {
        session,
        printer,
        options,
      });
    } catch (error) {
      printer.line(style.red(`  ${(error as Error).message}`));
    }
    if (serverGone) break;
    rl.prompt();
  }
  rl.close();

  if (serverGone) return 1;
  quitting = true;
  const exit = await session.close();
  const how = exit.signal ? `killed by ${exit.signal}` : `code ${String(exit.code)}`;
  printer.line(`${session.label} exited with ${how} after ${Math.round(exit.ms)} ms.`);
  return exit.code === 0 ? 0 : 1;
}

interface ReplContext {
  session: Session;
  printer: Printer;
  options: ConsoleOptions;
}

async function execute(command: string, argument: string, words: string[], ctx: ReplContext): Promise<void> {
  const { session, printer } = ctx;
  switch (command) {
    case '':
      return;
    case 'help':
      printer.line(REPL_HELP);
      return;
    case 'init':
      await session.request('initialize', initializeParams(words[0] ?? ctx.options.protocolVersion));
      return;
    case 'initialized':
      session.notify('notifications/initialized');
      return;
    case 'list': {
      const response = await session.request('tools/list');
      for (const tool of toolSummaries(response)) {
        printer.line(`  • ${tool.name}${tool.summary ? ` — ${tool.summary}` : ''}`);
      }
      const result = resultOf(response);
      if (result) {
        // What every prompt of a model that loads this server pays (the README's toolsets table measures it too).
        const bytes = Buffer.byteLength(JSON.stringify(result), 'utf8');
        printer.line(`  tools/list: ${bytes} bytes ≈ ${Math.ceil(bytes / 4)} tokens (bytes / 4)`);
      }
      return;
    }
    case 'call': {
      const [tool] = words;
      if (!tool) throw new Error('usage: call <tool> [json-arguments]');
      const json = argument.slice(tool.length).trim();
      const response = await session.request('tools/call', { name: tool, arguments: parseArguments(json) });
      for (const text of textBlocks(response)) printer.quote(text);
      return;
    }
    case 'ping':
      await session.request('ping');
      return;
    case 'resources':
      await session.request('resources/list');
      await session.request('resources/templates/list');
      return;
    case 'prompts':
      await session.request('prompts/list');
      return;
    case 'raw': {
      if (!argument) throw new Error('usage: raw <line to send verbatim>');
      const reply = session.nextInbound(RAW_REPLY_WAIT_MS);
      session.sendRaw(argument);
      if (!(await reply)) printer.line(`  (no answer within ${RAW_REPLY_WAIT_MS} ms)`);
      return;
    }
    case 'stderr':
      printer.line(session.peer.stderr || '  (nothing on stderr yet)');
      return;
    default:
      throw new Error(`unknown command "${command}"; type "help"`);
  }
}

function parseArguments(json: string): Record<string, unknown> {
  if (!json) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(
      `the arguments must be JSON, e.g. {"norad_id":25544}; use "raw" to send broken JSON on purpose`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error('the arguments must be a JSON object');
  }
  return value as Record<string, unknown>;
}
