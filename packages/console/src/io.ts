import type { Readable, Writable } from 'node:stream';

/** A writable stream that may be a terminal (process.stdout is a tty.WriteStream when it is). */
export type OutStream = Writable & { isTTY?: boolean };

/** Everything the console touches of its own process, so tests and a future host can supply their own. */
export interface ConsoleIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: OutStream;
  stderr: OutStream;
  env: NodeJS.ProcessEnv;
}

export function processIo(): ConsoleIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}
