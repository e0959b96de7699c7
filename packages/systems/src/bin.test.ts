// `code-systems`' engine flags belong to the systems that have a store: a flag given to another system, or
// `migrate` of a system without a schema, is refused in one line with exit 2 before anything starts; the
// hub on a NATS that does not answer refuses to start the same way.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@code-cluster/testkit';
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
      ['satdt', '--port', '0', '--nats-url', 'nats://127.0.0.1:4222'],
      '--nats-url is a setting of the hub, not of satdt',
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

describe('code-systems hub --nats-url', () => {
  it('exits 2 with one line naming HUB_NATS_URL when nothing answers there', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const { code, stderr } = await run(['hub', '--port', '0', '--nats-url', url]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(`HUB_NATS_URL ${url}`)]);
  });
});
