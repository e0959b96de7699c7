// `code-systems`' engine flags belong to the systems that have a store: a flag given to another system, or
// `migrate` of a system without a store, is refused in one line with exit 2 before anything starts.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('code-systems engine flags', () => {
  it.each([
    [
      ['satdt', '--database-url', 'postgres://x@127.0.0.1/y'],
      '--database-url is a setting of groundstation, roverdt, lab, academy, not of satdt',
    ],
    [
      ['hub', '--database-url', 'postgres://x@127.0.0.1/y'],
      '--database-url is a setting of groundstation, roverdt, lab, academy, not of hub',
    ],
    [
      ['lab', '--analytics-database-url', 'postgres://x@127.0.0.1/y'],
      '--analytics-database-url is a setting of academy, not of lab',
    ],
    [
      ['migrate', 'hub'],
      'hub has no schema to migrate (migrate is for groundstation, roverdt, lab, academy)',
    ],
  ])('refuses %j in one line, exit 2', async (args, line) => {
    const { code, stderr } = await run(args);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([`code-systems: ${line}`]);
  });
});
