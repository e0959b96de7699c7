// `code-systems hub --nats-url …`: the HTTP service of the hub on NATS refuses to start on a NATS that does
// not answer (one line, exit 2), and the flag belongs to the hub only.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

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

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe('code-systems hub --nats-url', () => {
  it('exits 2 with one line naming HUB_NATS_URL when nothing answers there', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const { code, stderr } = await run(['hub', '--port', '0', '--nats-url', url]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining(`HUB_NATS_URL ${url}`)]);
  });

  it('refuses the flag on another system', async () => {
    const { code, stderr } = await run(['satdt', '--port', '0', '--nats-url', 'nats://127.0.0.1:4222']);
    expect(code).toBe(2);
    expect(stderr).toContain('--nats-url is a setting of the hub, not of satdt');
  });
});
