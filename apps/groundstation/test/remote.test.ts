import { join } from 'node:path';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { createGroundstationSystem, type GroundstationSystem } from '@code-cluster/systems/groundstation';
import { type StdioPeer, wireIsError, wireText } from '@code-cluster/testkit';
import { describeUnreachableSystem, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnGroundstation, tempDataDir } from './helpers.js';

const TOKEN = 'groundstation-test-token';
const OPERATOR_TOKEN = 'groundstation-operator-token';
const data = tempDataDir();
let system: GroundstationSystem;
let service: RunningService;
const track = trackPeers();

function spawnRemote(url: string, extraEnv: Record<string, string> = {}, args: string[] = []): StdioPeer {
  const peer = spawnGroundstation(data.dir, args, {
    GROUNDSTATION_API_URL: url,
    GROUNDSTATION_API_TOKEN: TOKEN,
    ...extraEnv,
  });
  track(peer);
  return peer;
}

// Pinned inside orbiteye-cl's reference window (2026-11-23 to 2027-01-15), whatever today is; bookings are
// placed from the same clock, so the agenda's window holds them on any day the test runs.
const NOW = Date.parse('2026-12-01T10:30:00Z');
const inHours = (hours: number) => new Date(NOW + hours * 3_600_000).toISOString();

beforeAll(async () => {
  system = createGroundstationSystem({
    file: join(data.dir, 'remote-system.db'),
    operatorToken: OPERATOR_TOKEN,
    now: () => NOW,
  });
  service = await serveHttp(system.handler, { token: TOKEN });
});
afterAll(async () => {
  await service.close();
  system.close();
  data.remove();
});

describe('groundstation-mcp against the ground station system over real loopback HTTP', () => {
  it('serves every tool from the remote system', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const list = await peer.request('tools/call', { name: 'listar_estaciones', arguments: {} });
    expect(wireText(list)).toMatch(/^3 estaciones:/);
    const state = await peer.request('tools/call', {
      name: 'estado_estacion',
      arguments: { estacion: 'orbiteye-es' },
    });
    expect(wireIsError(state)).toBe(false);
    const booked = await peer.request('tools/call', {
      name: 'agendar_contacto',
      arguments: {
        estacion: 'orbiteye-es',
        norad_id: 40732 /* METEOSAT-11, always in view from Madrid */,
        inicio: inHours(5),
        fin: inHours(5.2),
      },
    });
    const id = (booked.result as { structuredContent: { contacto_id: string } }).structuredContent
      .contacto_id;
    // The booking lives in the remote system's store, not in the server's data dir.
    expect((await system.store.getContact(id))?.status).toBe('programado');
    const agenda = await peer.request('tools/call', {
      name: 'agenda_estacion',
      arguments: { estacion: 'orbiteye-es', horas: 6 },
    });
    expect(wireText(agenda)).toContain(id);
    const cancelled = await peer.request('tools/call', {
      name: 'cancelar_contacto',
      arguments: { contacto_id: id },
    });
    expect(wireIsError(cancelled)).toBe(false);
    expect((await system.store.getContact(id))?.status).toBe('cancelado');
  });

  it('turns the 409 of a station in maintenance into a domain error quoting its detail', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'agendar_contacto',
      arguments: {
        estacion: 'orbiteye-cl',
        norad_id: 25544,
        inicio: '2027-01-05T00:00:00Z',
        fin: '2027-01-05T00:10:00Z',
      },
    });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toMatch(/^La estación orbiteye-cl está en mantenimiento del /);
  });

  it("programs maintenance with the server's own operator credential, and only with a valid one", async () => {
    const operator = spawnRemote(service.url, { GROUNDSTATION_OPERATOR_TOKEN: OPERATOR_TOKEN }, [
      '--scope',
      'operador',
    ]);
    await operator.initialize();
    const ok = await operator.request('tools/call', {
      name: 'programar_mantenimiento',
      arguments: { estacion: 'orbiteye-mx', inicio: inHours(100), fin: inHours(102), motivo: 'Calibración' },
    });
    expect(wireIsError(ok)).toBe(false);

    const forged = spawnRemote(service.url, { GROUNDSTATION_OPERATOR_TOKEN: 'guess' }, [
      '--scope',
      'operador',
    ]);
    await forged.initialize();
    const refused = await forged.request('tools/call', {
      name: 'programar_mantenimiento',
      arguments: { estacion: 'orbiteye-mx', inicio: inHours(110), fin: inHours(112), motivo: 'Calibración' },
    });
    expect(wireIsError(refused)).toBe(true);
    expect(wireText(refused)).toContain('credencial de operador');

    // Outside operator scope the configured credential is not used: the tool does not even exist.
    const consult = spawnRemote(service.url, { GROUNDSTATION_OPERATOR_TOKEN: OPERATOR_TOKEN });
    await consult.initialize();
    const missing = await consult.request('tools/call', {
      name: 'programar_mantenimiento',
      arguments: { estacion: 'orbiteye-mx', inicio: inHours(120), fin: inHours(122), motivo: 'Calibración' },
    });
    expect(missing.error?.code).toBe(-32602);
  });

  it('reports a refused system credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { GROUNDSTATION_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'listar_estaciones', arguments: {} });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toContain('token');
  });
});

describeUnreachableSystem('groundstation-mcp', {
  envPrefix: 'GROUNDSTATION',
  spawn: (url, args) => spawnRemote(url, {}, args),
  call: { tool: 'estado_estacion', arguments: { estacion: 'orbiteye-mx' } },
});
