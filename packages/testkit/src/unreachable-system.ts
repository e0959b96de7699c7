import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ToolCallSample } from './protocol-suite.js';
import type { StdioPeer, WireMessage } from './stdio-peer.js';

export interface UnreachableSystemOptions {
  /** `<PREFIX>_API_URL` names the system's URL variable, e.g. `SATDT`. */
  envPrefix: string;
  /** Spawns the built server pointed at `url` (through `<PREFIX>_API_URL`), with extra arguments. */
  spawn(url: string, args?: string[]): StdioPeer;
  /** A call that needs the system. */
  call: ToolCallSample;
}

const resultText = (m: WireMessage) =>
  ((m.result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * What a server does when its system is not there (DESIGN.md §3 rules 3 and 6, §4): a closed port and a
 * system that never answers are domain errors within the tool's timeout, never a hang, and the upstream
 * request is aborted; a bad system URL stops the server at start-up naming the variable. Every server
 * with a remote mode runs it.
 */
export function describeUnreachableSystem(name: string, options: UnreachableSystemOptions): void {
  const callSystem = (peer: StdioPeer) =>
    peer.request('tools/call', { name: options.call.tool, arguments: options.call.arguments });

  describe(`${name}: when its system is unreachable`, () => {
    it('reports a system that is down as unavailable, within the timeout', async () => {
      const closed = createServer();
      const url = await listen(closed);
      await stop(closed);
      const peer = options.spawn(url);
      await peer.initialize();
      const started = performance.now();
      const response = await callSystem(peer);
      expect((response.result as { isError?: boolean }).isError).toBe(true);
      expect(resultText(response)).toContain('no está disponible');
      expect(performance.now() - started).toBeLessThan(5_000);
    });

    it('times out a slow system and aborts the upstream request', async () => {
      let upstreamAborted = false;
      const slow = createServer((req) => {
        req.socket.once('close', () => {
          upstreamAborted = true;
        });
      });
      const url = await listen(slow);
      try {
        const peer = options.spawn(url, ['--tool-timeout-ms', '500']);
        await peer.initialize();
        const response = await callSystem(peer);
        expect((response.result as { isError?: boolean }).isError).toBe(true);
        expect(resultText(response)).toContain('no terminó en 0.5 s');
        await sleep(200);
        expect(upstreamAborted).toBe(true);
      } finally {
        await stop(slow);
      }
    });

    it(`refuses a bad ${options.envPrefix}_API_URL at start-up, naming it`, async () => {
      const peer = options.spawn('ftp://nowhere');
      const exit = await peer.exited;
      expect(exit.code).toBe(2);
      expect(peer.stdoutLines).toEqual([]);
      expect(peer.stderr).toContain(`${options.envPrefix}_API_URL`);
    });
  });
}
