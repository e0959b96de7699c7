import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { createSatdtSystem } from '@code-cluster/systems/satdt';
import { type StdioPeer, spawnServer, wireText } from '@code-cluster/testkit';
import { describeUnreachableSystem, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elementUpdate, PINNED } from './helpers.js';

const TOKEN = 'satdt-test-token';
let service: RunningService;
const track = trackPeers();

function spawnRemote(url: string, extraEnv: Record<string, string> = {}, args: string[] = []): StdioPeer {
  const peer = spawnServer('satdt', args, {
    env: { ...process.env, SATDT_API_URL: url, SATDT_API_TOKEN: TOKEN, ...extraEnv },
  });
  track(peer);
  return peer;
}

beforeAll(async () => {
  const system = createSatdtSystem({ now: () => Date.parse(PINNED) });
  service = await serveHttp(system.handler, { token: TOKEN });
});
afterAll(() => service.close());

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
    expect(wireText(passes)).toMatch(/^\d+ pases?: /);
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

  it('refreshes the remote twin’s own element sources with actualizar_elementos (a POST)', async () => {
    const without = spawnRemote(service.url);
    await without.initialize();
    const none = await without.request('tools/call', { name: 'actualizar_elementos', arguments: {} });
    expect(wireText(none)).toMatch(/^No hay fuentes de elementos configuradas .*\(\d+ satélites\)\.$/);

    const dir = mkdtempSync(join(tmpdir(), 'satdt-remote-elements-'));
    const file = join(dir, 'elements.tle');
    writeFileSync(file, '');
    const twin = createSatdtSystem({ now: () => Date.parse('2026-06-30T00:00:00Z'), elements: { file } });
    const remote = await serveHttp(twin.handler, { token: TOKEN });
    try {
      const peer = spawnRemote(remote.url);
      await peer.initialize();
      writeFileSync(file, elementUpdate());
      const call = await peer.request('tools/call', { name: 'actualizar_elementos', arguments: {} });
      expect((call.result as { structuredContent: unknown }).structuredContent).toMatchObject({
        fuentes: [
          {
            origen: 'archivo',
            ubicacion: file,
            resultado: 'actualizada',
            actualizados: [25544],
            nuevos: [90001],
          },
        ],
      });
      const info = await peer.request('tools/call', {
        name: 'satelite_info',
        arguments: { norad_id: 25544 },
      });
      expect(wireText(info)).toContain(`del archivo ${file}, cargados 2026-06-30T00:00:00.000Z`);
    } finally {
      await remote.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('turns a 404 problem into a domain error quoting its detail', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'satelite_info',
      arguments: { norad_id: 99999 },
    });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(wireText(response)).toContain('No hay ningún satélite con NORAD 99999');
  });

  it('reports a refused credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { SATDT_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'satelite_info',
      arguments: { norad_id: 25544 },
    });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(wireText(response)).toContain('token');
  });
});

describeUnreachableSystem('satdt-mcp', {
  envPrefix: 'SATDT',
  spawn: (url, args) => spawnRemote(url, {}, args),
  call: { tool: 'satelite_info', arguments: { norad_id: 25544 } },
});
