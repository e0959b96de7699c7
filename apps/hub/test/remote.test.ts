import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inProcessTransport } from '@code-cluster/shared';
import { HubClient } from '@code-cluster/shared/hub';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { createHubSystem, type HubSystem } from '@code-cluster/systems/hub';
import { type StdioPeer, spawnServer, wireData, wireText } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const TOKEN = 'hub-test-token';
const data = tempDataDir();
let system: HubSystem;
let service: RunningService;
const track = trackPeers();

function spawnRemote(url: string, extraEnv: Record<string, string> = {}): StdioPeer {
  // A data dir of its own: in remote mode the server must not touch it (the hub lives behind the URL).
  const peer = spawnServer('hub', [], {
    env: {
      ...process.env,
      CODE_CLUSTER_DATA_DIR: join(data.dir, 'server'),
      HUB_API_URL: url,
      HUB_API_TOKEN: TOKEN,
      ...extraEnv,
    },
  });
  track(peer);
  return peer;
}

beforeAll(async () => {
  system = createHubSystem({ file: join(data.dir, 'system', 'hub.db') });
  service = await serveHttp(system.handler, { token: TOKEN });
});
afterAll(async () => {
  await service.close();
  system.close();
  data.remove();
});

describe('hub-mcp against the hub system over real loopback HTTP', () => {
  it('publishes, reads and lists through the remote system', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const args = { topico: 'remoto', tipo: 'x', datos: { v: 1 }, clave_idempotencia: 'r-1' };
    const published = await peer.request('tools/call', { name: 'publicar_evento', arguments: args });
    expect(wireData<{ duplicado: boolean }>(published).duplicado).toBe(false);
    const retried = await peer.request('tools/call', { name: 'publicar_evento', arguments: args });
    expect(wireData<{ duplicado: boolean }>(retried).duplicado).toBe(true);
    const read = await peer.request('tools/call', { name: 'leer_eventos', arguments: { topico: 'remoto' } });
    expect(wireData<{ eventos: Array<{ datos: unknown }> }>(read).eventos.map((e) => e.datos)).toEqual([
      { v: 1 },
    ]);
    const list = await peer.request('tools/call', { name: 'listar_topicos', arguments: {} });
    expect(wireText(list)).toContain('remoto (1 evento');
    // The event is in the remote system's log, not in a local one.
    expect(system.store.lastSeq('remoto')).toBe(1);
    expect(existsSync(join(data.dir, 'server'))).toBe(false);
  });

  it('notifies a subscriber (by polling the REST API) of a publish by another client within a second', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    expect((await peer.request('resources/subscribe', { uri: 'hub://topicos/vigilado' })).result).toEqual({});
    const other = new HubClient(inProcessTransport(() => system.handler));
    const started = performance.now();
    await other.publish('vigilado', { type: 'x', data: {} });
    const update = await peer.waitFor((m) => m.method === 'notifications/resources/updated', 1_000);
    expect(update.params).toEqual({ uri: 'hub://topicos/vigilado' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('turns a 413 problem into a domain error quoting its detail', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const response = await peer.request('tools/call', {
      name: 'publicar_evento',
      arguments: { topico: 'remoto', tipo: 'x', datos: { p: 'x'.repeat(40_000), q: 'x'.repeat(40_000) } },
    });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(wireText(response)).toContain('el límite es 65536 bytes');
  });

  it('reports a refused credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { HUB_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'listar_topicos', arguments: {} });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(wireText(response)).toContain('token');
  });

  it('reports a hub that is down as unavailable', async () => {
    const closed = await serveHttp(async () => ({ status: 200, headers: {}, body: '{}' }));
    const url = closed.url;
    await closed.close();
    const peer = spawnRemote(url);
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'listar_topicos', arguments: {} });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(wireText(response)).toContain('no está disponible');
  });

  it('refuses a bad HUB_API_URL at start-up, naming it', async () => {
    const peer = spawnRemote('ftp://nowhere');
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stderr).toContain('HUB_API_URL');
  });
});
