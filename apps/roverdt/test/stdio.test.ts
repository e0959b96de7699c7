import { DISCOVERY_TOOLS, describeTool } from '@code-cluster/mcp-kit';
import type { StdioPeer, WireMessage } from '@code-cluster/testkit';
import { describeProtocolRules, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import type { RoverData, RutaData } from '../src/format.js';
import { tools } from '../src/tools/index.js';
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

// Every spawned server keeps its SQLite file in a temp dir, never in the user's data dir.
const suiteData = tempDataDir();
afterAll(() => suiteData.remove());

describeProtocolRules('roverdt-mcp (built bin)', {
  spawn: (args) => spawnRoverdt(suiteData.dir, args),
  happy: { tool: 'estado_rover', arguments: { rover_id: 'rover-1' } },
  schemaViolation: {
    tool: 'planificar_ruta',
    arguments: { rover_id: 'rover-1', destino: { x: 300, y: 10 } },
    mentions: ['destino.x', '255', '300'],
  },
  domainError: {
    tool: 'planificar_ruta',
    arguments: { rover_id: 'rover-1', destino: TOO_FAR },
    mentions: /^Energía insuficiente: la ruta a \(250, 250\)/,
  },
  writeTools: ['planificar_ruta', 'ejecutar_ruta', 'esperar'],
  sourceTools: [...DISCOVERY_TOOLS, ...tools].map(describeTool),
});

const isProgress = (token: string) => (m: WireMessage) =>
  m.method === 'notifications/progress' && (m.params as { progressToken?: unknown }).progressToken === token;
const progressOf = (m: WireMessage) => m.params as { progress: number; total?: number; message?: string };

describe('roverdt-mcp over stdio: the long tool, cancellation and persistence', () => {
  const track = trackPeers();
  const dirs: Array<{ remove(): void }> = [];
  /** A server on a data dir of its own (a fresh rover-1), or on `dir` to share one. */
  const spawn = (dir?: string, env: Record<string, string> = {}) => {
    let where = dir;
    if (!where) {
      const data = tempDataDir();
      dirs.push(data);
      where = data.dir;
    }
    const peer = spawnRoverdt(where, [], env);
    track(peer);
    return { peer, dir: where };
  };

  const planOn = async (peer: StdioPeer, destino: { x: number; y: number }) => {
    const response = await peer.request('tools/call', {
      name: 'planificar_ruta',
      arguments: { rover_id: 'rover-1', destino },
    });
    expect(wireIsError(response)).toBe(false);
    return wireData<RutaData>(response);
  };
  const stateOf = async (peer: StdioPeer) =>
    wireData<RoverData>(
      await peer.request('tools/call', { name: 'estado_rover', arguments: { rover_id: 'rover-1' } }),
    );

  it('sends one notifications/progress per leg when the client sent a progressToken, and none without', async () => {
    const { peer } = spawn();
    await peer.initialize();
    const ruta = await planOn(peer, FAR_EAST);
    const started = performance.now();
    const response = await peer.request('tools/call', {
      name: 'ejecutar_ruta',
      arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
      _meta: { progressToken: 'viaje' },
    });
    expect(wireIsError(response)).toBe(false);
    // Paced (80 ms per leg by default) but done in seconds.
    expect(performance.now() - started).toBeLessThan(5_000);
    const progress = peer.received.filter(isProgress('viaje')).map(progressOf);
    expect(progress).toHaveLength(ruta.tramos.length);
    expect(progress.map((p) => p.progress)).toEqual(ruta.tramos.map((t) => t.tramo));
    expect(progress.every((p) => p.total === 8)).toBe(true);
    // Every notification came before the result.
    const resultAt = peer.received.indexOf(response);
    expect(peer.received.findLastIndex(isProgress('viaje'))).toBeLessThan(resultAt);

    const back = await planOn(peer, NEAR_EAST);
    const before = peer.received.length;
    await peer.request('tools/call', {
      name: 'ejecutar_ruta',
      arguments: { rover_id: 'rover-1', ruta_id: back.ruta_id },
    });
    expect(peer.received.slice(before).filter((m) => m.method === 'notifications/progress')).toEqual([]);
  });

  it('stops the rover between legs on notifications/cancelled: no response, consistent state, resumable', async () => {
    const { peer } = spawn(undefined, { ROVERDT_LEG_DELAY_MS: '200' });
    await peer.initialize();
    const ruta = await planOn(peer, FAR_EAST);
    peer.send({
      jsonrpc: '2.0',
      id: 'conducir',
      method: 'tools/call',
      params: {
        name: 'ejecutar_ruta',
        arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
        _meta: { progressToken: 'viaje' },
      },
    });
    await peer.waitFor((m) => isProgress('viaje')(m) && progressOf(m).progress === 2);
    peer.notify('notifications/cancelled', { requestId: 'conducir', reason: 'el operador cambió de plan' });
    const afterCancel = peer.received.length;
    await peer.quietFor(1_000);
    const later = peer.received.slice(afterCancel);
    expect(peer.received.filter((m) => m.id === 'conducir')).toEqual([]);
    // At most the leg already under way when the cancellation arrived was reported after it.
    expect(later.filter(isProgress('viaje')).length).toBeLessThanOrEqual(1);

    const state = await stateOf(peer);
    const done = peer.received.filter(isProgress('viaje')).length;
    expect(done).toBeGreaterThanOrEqual(2);
    expect(done).toBeLessThan(8);
    // The rover stands at the end of the last leg it finished, with exactly those legs paid for.
    expect(state.posicion).toMatchObject(ruta.tramos[done - 1]!.hasta);
    const spent = ruta.tramos.slice(0, done).reduce((a, t) => a + t.energia_wh, 0);
    expect(state.bateria_wh).toBeCloseTo(800 - spent, 0);
    expect(state).toMatchObject({ modo: 'en_ruta', ruta_activa: ruta.ruta_id });
    expect(
      wireText(
        await peer.request('tools/call', { name: 'estado_rover', arguments: { rover_id: 'rover-1' } }),
      ),
    ).toContain(`ruta ${ruta.ruta_id} a medias`);

    // Called again, the route goes on from where it stopped and completes.
    const resumed = await peer.request('tools/call', {
      name: 'ejecutar_ruta',
      arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
    });
    expect(wireText(resumed)).toContain(`completada (reanudada desde el tramo ${done + 1})`);
    expect(wireData<{ tramos_en_esta_llamada: number }>(resumed).tramos_en_esta_llamada).toBe(8 - done);
    expect((await stateOf(peer)).posicion).toMatchObject(FAR_EAST);
  });

  it('keeps the rover where it was driven after the process is killed: a new process on the same data dir sees it', async () => {
    const first = spawn();
    await first.peer.initialize();
    const ruta = await planOn(first.peer, NEAR_EAST);
    const driven = await first.peer.request('tools/call', {
      name: 'ejecutar_ruta',
      arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
    });
    const after = wireData<{ rover: RoverData }>(driven).rover;
    await first.peer.kill('SIGKILL');

    const second = spawn(first.dir);
    await second.peer.initialize();
    const state = await stateOf(second.peer);
    expect(state).toEqual(after);
    expect(state.posicion).toMatchObject(NEAR_EAST);
    expect(state.bateria_pct).toBeLessThan(80);
    // The completed route is remembered too: driving it again is refused for that reason.
    const again = await second.peer.request('tools/call', {
      name: 'ejecutar_ruta',
      arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
    });
    expect(wireIsError(again)).toBe(true);
    expect(wireText(again)).toContain('ya se completó');
  });

  it('refuses a bad ROVERDT_LEG_DELAY_MS at start-up, naming it', async () => {
    const { peer } = spawn(undefined, { ROVERDT_LEG_DELAY_MS: '5000' });
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stderr).toContain('ROVERDT_LEG_DELAY_MS');
  });
});
