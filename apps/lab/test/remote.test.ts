import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { createLabSystem, type LabSystem } from '@code-cluster/systems/lab';
import { type StdioPeer, spawnServer, wireData, wireIsError, wireText } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_TRANSCRIPT, tempDataDir } from './helpers.js';

const TOKEN = 'lab-test-token';
const data = tempDataDir();
let system: LabSystem;
let service: RunningService;
let slowSystem: LabSystem;
let slowService: RunningService;
const track = trackPeers();

function spawnRemote(url: string, extraEnv: Record<string, string> = {}, args: string[] = []): StdioPeer {
  // A data dir of its own: in remote mode the server must not touch it (the lab lives behind the URL).
  const peer = spawnServer('lab', args, {
    env: {
      ...process.env,
      CODE_CLUSTER_DATA_DIR: join(data.dir, 'server'),
      LAB_API_URL: url,
      LAB_API_TOKEN: TOKEN,
      ...extraEnv,
    },
  });
  track(peer);
  return peer;
}

beforeAll(async () => {
  system = createLabSystem({ file: join(data.dir, 'system', 'lab.db') });
  service = await serveHttp(system.handler, { token: TOKEN });
  slowSystem = createLabSystem({ file: join(data.dir, 'slow', 'lab.db'), stepDelayMs: 3_000 });
  slowService = await serveHttp(slowSystem.handler, { token: TOKEN });
});
afterAll(async () => {
  await service.close();
  await slowService.close();
  await system.close();
  await slowSystem.close();
  data.remove();
});

async function submit(peer: StdioPeer, content: string): Promise<string> {
  const started = await peer.request('tools/call', {
    name: 'iniciar_laboratorio',
    arguments: { laboratorio: 'mcp-handshake', estudiante: 'olga-ramos' },
  });
  const { sesion_id } = wireData<{ sesion_id: string }>(started);
  const sent = await peer.request('tools/call', {
    name: 'enviar_entrega',
    arguments: { sesion_id, contenido: content },
  });
  return wireData<{ entrega_id: string }>(sent).entrega_id;
}

describe('lab-mcp against the lab system over real loopback HTTP', () => {
  it('runs a whole attempt through the remote system', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const list = await peer.request('tools/call', { name: 'listar_laboratorios', arguments: {} });
    expect(wireText(list)).toContain('mcp-handshake');
    const entrega_id = await submit(peer, GOOD_TRANSCRIPT);
    const result = await peer.request('tools/call', { name: 'resultado_entrega', arguments: { entrega_id } });
    expect(wireData<{ aprobada: boolean }>(result).aprobada).toBe(true);
    // Stored in the remote system, not in a local one.
    expect((await system.store.submission(entrega_id))?.status).toBe('evaluada');
    expect(existsSync(join(data.dir, 'server'))).toBe(false);
    const statement = await peer.request('resources/read', {
      uri: 'lab://laboratorios/mcp-esquemas/enunciado',
    });
    expect(JSON.stringify(statement.result)).toContain('esquema_ajustado');
  });

  it('answers "still grading" from a slow system when the wait runs out, without an error', async () => {
    const peer = spawnRemote(slowService.url);
    await peer.initialize();
    const entrega_id = await submit(peer, GOOD_TRANSCRIPT);
    const began = performance.now();
    const result = await peer.request('tools/call', {
      name: 'resultado_entrega',
      arguments: { entrega_id, espera_max_s: 1 },
    });
    expect(performance.now() - began).toBeLessThan(2_500);
    expect(wireIsError(result)).toBe(false);
    expect(wireData<{ aprobada: null; estado: string }>(result)).toMatchObject({ aprobada: null });
    expect(wireText(result)).toContain('evaluación en curso');
  });

  it('reports a refused credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { LAB_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'listar_laboratorios', arguments: {} });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toContain('token');
  });

  it('reports a lab system that is down as unavailable', async () => {
    const closed = await serveHttp(async () => ({ status: 200, headers: {}, body: '{}' }));
    const url = closed.url;
    await closed.close();
    const peer = spawnRemote(url);
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'listar_laboratorios', arguments: {} });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toContain('El sistema de laboratorios no está disponible');
  });

  it('times a hanging lab system out as a domain error within the tool timeout', async () => {
    const hanging = await serveHttp(() => new Promise(() => {}));
    try {
      const peer = spawnRemote(hanging.url, {}, ['--tool-timeout-ms', '500']);
      await peer.initialize();
      const response = await peer.request('tools/call', { name: 'listar_laboratorios', arguments: {} });
      expect(wireIsError(response)).toBe(true);
      expect(wireText(response)).toContain('no terminó en 0.5 s');
    } finally {
      await hanging.close();
    }
  });

  it('refuses a bad LAB_API_URL at start-up, naming it', async () => {
    const peer = spawnRemote('ftp://nowhere');
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stderr).toContain('LAB_API_URL');
  });
});
