import { join } from 'node:path';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { openRoverdtSystem, type RoverdtSystem } from '@code-cluster/systems/roverdt';
import type { StdioPeer, WireMessage } from '@code-cluster/testkit';
import { describeUnreachableSystem, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RutaData } from '../src/format.js';
import {
  FAR_EAST,
  NEAR_EAST,
  spawnRoverdt,
  TOO_FAR,
  tempDataDir,
  wireData,
  wireIsError,
  wireText,
} from './helpers.js';

const TOKEN = 'roverdt-test-token';
const data = tempDataDir();
let system: RoverdtSystem;
let service: RunningService;
let round = 0;
const track = trackPeers();

function spawnRemote(url: string, extraEnv: Record<string, string> = {}, args: string[] = []): StdioPeer {
  const peer = spawnRoverdt(data.dir, args, { ROVERDT_API_URL: url, ROVERDT_API_TOKEN: TOKEN, ...extraEnv });
  track(peer);
  return peer;
}

// A fresh remote twin per test, so each one starts with rover-1 at (40, 40) and 80 %.
beforeEach(async () => {
  system = await openRoverdtSystem({ file: join(data.dir, `remote-system-${++round}.db`) });
  service = await serveHttp(system.handler, { token: TOKEN });
});
afterEach(async () => {
  await service.close();
  await system.close();
});
afterAll(() => data.remove());

const call = (peer: StdioPeer, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
  peer.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) });
const progressCount = (peer: StdioPeer, token: string) =>
  peer.received.filter(
    (m: WireMessage) =>
      m.method === 'notifications/progress' &&
      (m.params as { progressToken?: unknown }).progressToken === token,
  ).length;

describe('roverdt-mcp against the rover twin over real loopback HTTP', () => {
  it('serves every tool from the remote system, whose store holds the rover state', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    expect(wireText(await call(peer, 'estado_rover', { rover_id: 'rover-1' }))).toMatch(
      /^rover-1 .* en \(40, 40\)/,
    );
    const planned = wireData<RutaData>(
      await call(peer, 'planificar_ruta', { rover_id: 'rover-1', destino: NEAR_EAST }),
    );
    const driven = await call(
      peer,
      'ejecutar_ruta',
      { rover_id: 'rover-1', ruta_id: planned.ruta_id },
      { progressToken: 'remoto' },
    );
    expect(wireIsError(driven)).toBe(false);
    expect(progressCount(peer, 'remoto')).toBe(planned.tramos.length);
    // The rover moved in the remote system, not in the server's data dir.
    expect(await system.store.getRover('rover-1')).toMatchObject({ x: 70, y: 40, mode: 'reposo' });
    expect((await system.store.getRoute(planned.ruta_id))?.status).toBe('completada');
    const measured = await call(peer, 'medir', { rover_id: 'rover-1', instrumento: 'espectrometro' });
    expect(wireText(measured)).toMatch(/^Composición en \(70, 40\)/);
  });

  it('turns the 409 of a route over budget into a domain error quoting its detail', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const response = await call(peer, 'planificar_ruta', { rover_id: 'rover-1', destino: TOO_FAR });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toMatch(/^Energía insuficiente: .* necesita 856\.8 Wh, pero solo hay 650 Wh/);
  });

  it('leaves the remote rover between two legs when the call is cancelled', async () => {
    const peer = spawnRemote(service.url, { ROVERDT_LEG_DELAY_MS: '200' });
    await peer.initialize();
    const ruta = wireData<RutaData>(
      await call(peer, 'planificar_ruta', { rover_id: 'rover-1', destino: FAR_EAST }),
    );
    peer.send({
      jsonrpc: '2.0',
      id: 'remoto',
      method: 'tools/call',
      params: {
        name: 'ejecutar_ruta',
        arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
        _meta: { progressToken: 'remoto' },
      },
    });
    await peer.waitFor((m) => m.method === 'notifications/progress');
    peer.notify('notifications/cancelled', { requestId: 'remoto' });
    await peer.quietFor(800);
    expect(peer.received.filter((m) => m.id === 'remoto')).toEqual([]);
    const route = (await system.store.getRoute(ruta.ruta_id))!;
    expect(route.status).toBe('en_curso');
    expect(route.legs_done).toBeLessThan(8);
    const rover = (await system.store.getRover('rover-1'))!;
    expect({ x: rover.x, y: rover.y }).toEqual(ruta.tramos[route.legs_done - 1]!.hasta);
    const spent = ruta.tramos.slice(0, route.legs_done).reduce((a, t) => a + t.energia_wh, 0);
    expect(rover.battery_wh).toBeCloseTo(800 - spent, 0);
  });

  it('reports a refused system credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { ROVERDT_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await call(peer, 'estado_rover', { rover_id: 'rover-1' });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toContain('token');
  });
});

describeUnreachableSystem('roverdt-mcp', {
  envPrefix: 'ROVERDT',
  spawn: (url, args) => spawnRemote(url, {}, args),
  call: { tool: 'estado_rover', arguments: { rover_id: 'rover-1' } },
});
