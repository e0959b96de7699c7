import { basename, extname } from 'node:path';
import { type TargetSpec, UsageError } from './args.js';
import { SERVER_APPS, type ServerApp, serverBin } from './peer.js';

/** A server process to spawn, with the label its transcript lines carry. */
export interface ServerTarget {
  label: string;
  command: string;
  args: string[];
}

/** Interpreters whose first non-option argument names the server better than the interpreter does. */
const RUNNERS = new Set(['node', 'bun', 'deno', 'npx', 'tsx', 'python', 'python3', 'uv', 'uvx']);

export function resolveTarget(spec: TargetSpec): ServerTarget {
  if (spec.kind === 'command') return { label: commandLabel(spec.command, spec.args), ...spec };
  if (!(SERVER_APPS as readonly string[]).includes(spec.app)) {
    throw new UsageError(`unknown server "${spec.app}"; known: ${SERVER_APPS.join(', ')}`);
  }
  // serverBin throws with a "run `pnpm build` first" message when the bundle is missing.
  return { label: spec.app, command: process.execPath, args: [serverBin(spec.app as ServerApp)] };
}

function commandLabel(command: string, args: string[]): string {
  const program = basename(command);
  const script = RUNNERS.has(program.replace(/\.exe$/, ''))
    ? args.find((arg) => !arg.startsWith('-'))
    : undefined;
  const name = basename(script ?? program);
  return name.slice(0, name.length - extname(name).length) || name;
}
