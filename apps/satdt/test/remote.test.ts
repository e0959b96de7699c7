import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { createSatdtSystem } from '@code-cluster/systems/satdt';
import { type StdioPeer, spawnServer } from '@code-cluster/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PINNED } from './helpers.js';

const TOKEN = 'satdt-test-token';
let service: RunningService;
const peers: StdioPeer[] = [];

function spawnRemote(url: string, extraEnv: Record<string, string> = {}, args: string[] = []): StdioPeer {
  const peer = spawnServer('satdt', args, {
    env: { ...process.env, SATDT_API_URL: url, SATDT_API_TOKEN: TOKEN, ...extraEnv },
  });
  peers.push(peer);
  return peer;
}

const textOf = (m: { result?: unknown }) =>
  (m.result as { content: Array<{ text: string }> }).content.map((c) => c.text).join('\n');

beforeAll(async () => {
  const system = createSatdtSystem({ now: () => Date.parse(PINNED) });
  service = await serveHttp(system.handler, { token: TOKEN });
});
afterAll(() => service.close());
afterEach(async () => {
  for (const peer of peers.splice(0)) {
    expect(peer.invalidStdoutLines).toEqual([]);
    if (peer.child.exitCode === null) await peer.kill('SIGKILL');
  }
});

describe('satdt-mcp against the satdt system over real loopback HTTP', () => {
  it('serves every tool from the remote system', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const info = await peer.request('tools/call', { name: 'satelite_info', arguments: { norad_id: 25544 } });
    expect((info.result as { structuredContent: { nombre: string } }).structuredContent.nombre).toBe(
      'ISS (ZARYA)',
    );
    const passes = await peer.request('tools/call', {
      name: 'proximos_pases',
      arguments: { norad_id: 25544, estacion: 'orbiteye-es', horas: 24, desde: PINNED },
    });
    expect(textOf(passes)).toMatch(/^\d+ pases?: /);
    const position = await peer.request('tools/call', {
      name: 'posicion_satelite',
      arguments: { norad_id: 25544 },
    });
    // The remote system's clock (pinned) decides "now", not the server's.
    expect((position.result as { structuredContent: { instante: string } }).structuredContent.instante).toBe(
      PINNED,
    );
    const telemetry = await peer.request('tools/call', {
      name: 'telemetria_satelite',
      arguments: { norad_id: 25544 },
    });
    expect((telemetry.result as { isError?: boolean }).isError).toBeFalsy();
  });

  it('turns a 404 problem into a domain error quoting its detail', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'satelite_info',
      arguments: { norad_id: 99999 },
    });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(textOf(response)).toContain('No hay ningún satélite con NORAD 99999');
  });

  it('reports a refused credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { SATDT_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'satelite_info',
      arguments: { norad_id: 25544 },
    });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(textOf(response)).toContain('token');
  });

  it('reports a system that is down as unavailable, within the timeout', async () => {
    const closed = await serveHttp(async () => ({ status: 200, headers: {}, body: '{}' }));
    const url = closed.url;
    await closed.close();
    const peer = spawnRemote(url);
    await peer.initialize();
    const started = performance.now();
    const response = await peer.request('tools/call', {
      name: 'satelite_info',
      arguments: { norad_id: 25544 },
    });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(textOf(response)).toContain('no está disponible');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('times out a slow system and aborts the upstream request', async () => {
    let upstreamAborted = false;
    const slow = await serveHttp(async (request) => {
      request.signal?.addEventListener('abort', () => {
        upstreamAborted = true;
      });
      await sleep(10_000, undefined, { signal: request.signal }).catch(() => {});
      return { status: 200, headers: {}, body: '{}' };
    });
    try {
      const peer = spawnRemote(slow.url, {}, ['--tool-timeout-ms', '500']);
      await peer.initialize();
      const response = await peer.request('tools/call', {
        name: 'satelite_info',
        arguments: { norad_id: 25544 },
      });
      expect((response.result as { isError: boolean }).isError).toBe(true);
      expect(textOf(response)).toContain('no terminó en 0.5 s');
      await sleep(200);
      expect(upstreamAborted).toBe(true);
    } finally {
      await slow.close();
    }
  });

  it('refuses a bad SATDT_API_URL at start-up, naming it', async () => {
    const peer = spawnRemote('ftp://nowhere');
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stderr).toContain('SATDT_API_URL');
  });
});
