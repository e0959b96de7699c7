import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_BUNDLE } from './global-setup.js';

export const FIXTURE_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'fixture-server.mjs');

/** `-- node fixture-server.mjs [flags]`: the console's arguments to run against the fixture server. */
export function fixtureTarget(...flags: string[]): string[] {
  return ['--', process.execPath, FIXTURE_SERVER, ...flags];
}

export interface ConsoleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the console's stdin, which is then closed. */
  input?: string;
  /** Added to a colour-neutral environment (FORCE_COLOR and NO_COLOR removed). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/** Runs the console as a real process and collects everything it prints. */
export function runConsole(args: string[], options: RunOptions = {}): Promise<ConsoleRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env['FORCE_COLOR'];
  delete env['NO_COLOR'];
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [CLI_BUNDLE, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`code-console did not finish in time\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 15_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The pretty-printed JSON bodies under each `→`/`←` line of a readable transcript. */
export function transcriptBodies(stdout: string): Array<{ header: string; body: string }> {
  const entries: Array<{ header: string; body: string }> = [];
  let current: { header: string; lines: string[] } | undefined;
  const flush = () => {
    if (current) entries.push({ header: current.header, body: current.lines.join('\n') });
    current = undefined;
  };
  for (const line of stdout.split('\n')) {
    if (line.startsWith('→ ') || line.startsWith('← ')) {
      flush();
      current = { header: line, lines: [] };
    } else if (current && line.startsWith('    ')) {
      current.lines.push(line);
    } else {
      flush();
    }
  }
  flush();
  return entries;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point
export const ANSI = /\u001b\[\d+m/;
