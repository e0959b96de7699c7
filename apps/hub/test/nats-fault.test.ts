// hub-mcp on a NATS of the test's own, which dies: at start (exit 2, one line), between calls (a domain
// error, never a hang, then recovery) and in the middle of a stream of publishes (kill -9, restart, retry
// with the same keys: every acknowledged event exactly once).
import { freePort, type StdioPeer, spawnServer, type WireMessage } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryForTests } from '../../../scripts/engines/engines.mjs';
import { tempDataDir } from './helpers.js';
import { NATS_SERVER, OwnNatsServer } from './nats.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();
const servers: OwnNatsServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.remove();
});

const binary = binaryForTests(
  NATS_SERVER,
  'hub-mcp with its own nats-server (apps/hub/test/nats-fault.test.ts)',
);

let spawned = 0;
function spawnHub(env: Record<string, string>): StdioPeer {
  const peer = spawnServer('hub', [], {
    env: { ...process.env, CODE_CLUSTER_DATA_DIR: `${data.dir}/${spawned++}`, ...env },
  });
  track(peer);
  return peer;
}

const structured = <T>(m: WireMessage) => (m.result as { structuredContent: T }).structuredContent;
const textOf = (m: WireMessage) =>
  ((m.result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

async function ownServer(): Promise<OwnNatsServer> {
  const server = await OwnNatsServer.start();
  servers.push(server);
  return server;
}

describe.runIf(binary)('hub-mcp when its NATS is not there', () => {
  it('refuses to start on a URL nothing answers: one stderr line naming HUB_NATS_URL, exit 2', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const hub = spawnHub({ HUB_NATS_URL: url });
    const exit = await hub.exited;
    expect(exit.code).toBe(2);
    const lines = hub.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`HUB_NATS_URL ${url}`);
    expect(hub.stdoutLines).toEqual([]);
  });

  it('refuses a URL that is not a NATS one at start, naming the variable', async () => {
    const hub = spawnHub({ HUB_NATS_URL: 'http://127.0.0.1:4222' });
    expect((await hub.exited).code).toBe(2);
    expect(hub.stderr).toContain('HUB_NATS_URL');
  });

  it('answers "no está disponible" while NATS is down, and works again once it is back', async () => {
    const nats = await ownServer();
    const hub = spawnHub({ HUB_NATS_URL: nats.url });
    await hub.initialize();
    const publish = (n: number) =>
      hub.request('tools/call', {
        name: 'publicar_evento',
        arguments: { topico: 'caida', tipo: 'n', datos: { n }, clave_idempotencia: `c-${n}` },
      });
    expect(structured<{ evento: { secuencia: number } }>(await publish(1)).evento.secuencia).toBe(1);

    await nats.kill();
    const down = await publish(2);
    expect((down.result as { isError?: boolean }).isError).toBe(true);
    expect(textOf(down)).toContain('no está disponible');
    const read = await hub.request('tools/call', { name: 'leer_eventos', arguments: { topico: 'caida' } });
    expect(textOf(read)).toContain('no está disponible');

    await nats.restart();
    // The client reconnects by itself; the first calls after the restart may still find it reconnecting.
    let again: WireMessage | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      again = await publish(2);
      if (!(again.result as { isError?: boolean }).isError) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(structured<{ evento: { secuencia: number } }>(again!).evento.secuencia).toBe(2);
    const page = structured<{ eventos: Array<{ datos: { n: number } }> }>(
      await hub.request('tools/call', { name: 'leer_eventos', arguments: { topico: 'caida' } }),
    );
    expect(page.eventos.map((e) => e.datos.n)).toEqual([1, 2]);
  });
});

describe.runIf(binary)('kill -9 of NATS in the middle of a stream of publishes', () => {
  it('keeps every acknowledged event exactly once after a restart and retries with the same keys', async () => {
    const nats = await ownServer();
    const TOTAL = 300;
    const call = (i: number) => ({
      name: 'publicar_evento',
      arguments: { topico: 'flujo', tipo: 'n', datos: { i }, clave_idempotencia: `k-${i}` },
    });
    const hub = spawnHub({ HUB_NATS_URL: nats.url });
    await hub.initialize();
    const acked = new Map<number, number>();
    hub.onEvent((event) => {
      const id = event.message?.id;
      if (event.direction !== 'in' || typeof id !== 'string' || !id.startsWith('p-')) return;
      const result = event.message!.result as { isError?: boolean; structuredContent?: unknown } | undefined;
      if (!result || result.isError) return;
      acked.set(
        Number(id.slice(2)),
        structured<{ evento: { secuencia: number } }>(event.message!).evento.secuencia,
      );
    });
    for (let i = 0; i < TOTAL; i++)
      hub.send({ jsonrpc: '2.0', id: `p-${i}`, method: 'tools/call', params: call(i) });
    await hub.waitFor(() => acked.size >= 40);
    await nats.kill();
    const answered = () => hub.received.filter((m) => String(m.id).startsWith('p-'));
    const refused = () => answered().filter((m) => (m.result as { isError?: boolean }).isError);
    // Some publishes in flight are refused as "no disponible" while NATS is dead; then it comes back, and
    // every request gets an answer: none hangs.
    await hub.waitFor(() => refused().length > 0, 60_000);
    expect(textOf(refused()[0]!)).toContain('no está disponible');
    await nats.restart();
    await hub.waitFor(() => answered().length === TOTAL, 120_000);
    expect(acked.size).toBeLessThan(TOTAL);
    const acknowledged = new Map(acked);

    for (let i = 0; i < TOTAL; i++) {
      for (let attempt = 0; ; attempt++) {
        const response = await hub.request('tools/call', call(i));
        if ((response.result as { isError?: boolean }).isError && attempt < 50) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        const result = structured<{ evento: { secuencia: number }; duplicado: boolean }>(response);
        if (acknowledged.has(i)) {
          expect(result.duplicado).toBe(true);
          expect(result.evento.secuencia).toBe(acknowledged.get(i));
        }
        break;
      }
    }

    const seen: number[] = [];
    let desde: string | undefined;
    for (;;) {
      const page = structured<{
        eventos: Array<{ datos: { i: number } }>;
        siguiente_cursor: string;
        hay_mas: boolean;
      }>(
        await hub.request('tools/call', {
          name: 'leer_eventos',
          arguments: { topico: 'flujo', limite: 100, ...(desde ? { desde } : {}) },
        }),
      );
      seen.push(...page.eventos.map((e) => e.datos.i));
      desde = page.siguiente_cursor;
      if (!page.hay_mas) break;
    }
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
    for (const i of acknowledged.keys()) expect(seen).toContain(i);
  }, 180_000);
});
