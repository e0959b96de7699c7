import { type ConsoleOptions, parseArgs, USAGE, UsageError } from './args.js';
import { runCatalog, runEpisode } from './federated.js';
import type { ConsoleIo } from './io.js';
import { runRepl } from './repl.js';
import { runScripted } from './scripted.js';

/** The whole command: parses argv, runs a mode, resolves with the process exit code. */
export async function run(argv: readonly string[], io: ConsoleIo): Promise<number> {
  let options: ConsoleOptions;
  try {
    options = parseArgs(argv);
  } catch (error) {
    return usageError(error, io);
  }
  if (options.mode === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    switch (options.mode) {
      case 'episode':
        return await runEpisode(options, io);
      case 'catalog':
        return await runCatalog(options, io);
      case 'interactive':
        return await runRepl(options, io);
      default:
        return await runScripted(options, io);
    }
  } catch (error) {
    if (error instanceof UsageError) return usageError(error, io);
    io.stderr.write(`code-console: ${(error as Error).message}\n`);
    return 1;
  }
}

function usageError(error: unknown, io: ConsoleIo): number {
  io.stderr.write(`code-console: ${(error as Error).message}\nTry \`code-console --help\`.\n`);
  return 2;
}
