import { type StdioPeer, spawnServer, wireData } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { engineForTests } from '../../../scripts/engines/engines.mjs';
import { tempDataDir } from './helpers.js';
import { deleteStreams, uniqueStream } from './nats.js';

const data = tempDataDir();
afterAll(() => data.remove());

const track = trackPeers();

/** Where the processes keep their one log: a data dir (SQLite), or a stream on a NATS when one is here. */
const natsUrl = await engineForTests(
  'nats',
  'hub-mcp processes on JetStream (apps/hub/test/processes.test.ts)',
);
const streams: string[] = [];
afterAll(() => deleteStreams(natsUrl, streams));

let spawned = 0;
const backings = [
  { name: 'a data dir', env: (place: string) => ({ CODE_CLUSTER_DATA_DIR: `${data.dir}/${place}` }) },
  ...(natsUrl
    ? [
        {
          name: 'NATS JetStream',
          // Each process its own data dir: all they share is the stream.
          env: (place: string) => ({
            CODE_CLUSTER_DATA_DIR: `${data.dir}/nats-${spawned++}`,
            HUB_NATS_URL: natsUrl,
            HUB_NATS_STREAM: stream(place),
          }),
        },
      ]
    : []),
];
const placeStreams = new Map<string, string>();
function stream(place: string): string {
  if (!placeStreams.has(place)) placeStreams.set(place, uniqueStream(streams, place));
  return placeStreams.get(place)!;
}

describe.each(backings)('on $name', (backing) => {
  function spawnHub(place: string): StdioPeer {
    const peer = spawnServer('hub', [], { env: { ...process.env, ...backing.env(place) } });
    track(peer);
    return peer;
  }

  describe('durability: kill -9 in the middle of a stream of publishes', () => {
    it('keeps every acknowledged publish, and a retry with the same key never duplicates', async () => {
      const dir = 'kill';
      const TOTAL = 300;
      const publish = (i: number) => ({
        jsonrpc: '2.0',
        id: `p-${i}`,
        method: 'tools/call',
        params: {
          name: 'publicar_evento',
          arguments: { topico: 'stream', tipo: 'n', datos: { i }, clave_idempotencia: `k-${i}` },
        },
      });

      const first = spawnHub(dir);
      await first.initialize();
      const acked = new Map<number, number>();
      first.onEvent((event) => {
        const id = event.message?.id;
        if (event.direction !== 'in' || typeof id !== 'string' || !id.startsWith('p-')) return;
        const seq = wireData<{ evento: { secuencia: number } }>(event.message!).evento.secuencia;
        acked.set(Number(id.slice(2)), seq);
      });
      // A stream in flight: every request is sent, the process dies while answers are still coming.
      for (let i = 0; i < TOTAL; i++) first.send(publish(i));
      // Answers may come out of order (JetStream serves publishes concurrently): count them, not ids.
      await first.waitFor(() => acked.size >= 41);
      const exit = await first.kill('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      expect(acked.size).toBeGreaterThanOrEqual(41);
      expect(acked.size).toBeLessThan(TOTAL);

      // The client retries everything it sent, with the same keys, on a new process.
      const second = spawnHub(dir);
      await second.initialize();
      for (let i = 0; i < TOTAL; i++) {
        const response = await second.request('tools/call', publish(i).params);
        const result = wireData<{ evento: { secuencia: number }; duplicado: boolean }>(response);
        if (acked.has(i)) {
          expect(result.duplicado).toBe(true);
          expect(result.evento.secuencia).toBe(acked.get(i));
        }
      }

      const seen: number[] = [];
      let desde: string | undefined;
      for (;;) {
        const page = wireData<{
          eventos: Array<{ datos: { i: number } }>;
          siguiente_cursor: string;
          hay_mas: boolean;
        }>(
          await second.request('tools/call', {
            name: 'leer_eventos',
            arguments: { topico: 'stream', limite: 100, ...(desde ? { desde } : {}) },
          }),
        );
        seen.push(...page.eventos.map((e) => e.datos.i));
        desde = page.siguiente_cursor;
        if (!page.hay_mas) break;
      }
      expect(seen).toHaveLength(TOTAL);
      expect(new Set(seen).size).toBe(TOTAL);
      for (const i of acked.keys()) expect(seen).toContain(i);
    });
  });

  describe('two hub processes on one log', () => {
    it('notifies a subscriber of one process of a publish in the other within a second', async () => {
      const dir = 'shared';
      const subscriber = spawnHub(dir);
      const publisher = spawnHub(dir);
      await Promise.all([subscriber.initialize(), publisher.initialize()]);
      const subscribed = await subscriber.request('resources/subscribe', { uri: 'hub://topicos/compartido' });
      expect(subscribed.result).toEqual({});

      for (let round = 1; round <= 3; round++) {
        const started = performance.now();
        const published = await publisher.request('tools/call', {
          name: 'publicar_evento',
          arguments: { topico: 'compartido', tipo: 'aviso', datos: { round } },
        });
        expect(wireData<{ evento: { secuencia: number } }>(published).evento.secuencia).toBe(round);
        await subscriber.waitFor(
          (m) =>
            m.method === 'notifications/resources/updated' &&
            subscriber.received.filter((r) => r.method === 'notifications/resources/updated').length >= round,
          1_000,
        );
        expect(performance.now() - started).toBeLessThan(1_000);
      }
      const updates = subscriber.received.filter((m) => m.method === 'notifications/resources/updated');
      expect(updates.map((m) => (m.params as { uri: string }).uri)).toEqual(
        Array(3).fill('hub://topicos/compartido'),
      );

      // A publish on another topic wakes nobody; the publisher, not subscribed, gets nothing.
      await publisher.request('tools/call', {
        name: 'publicar_evento',
        arguments: { topico: 'otro', tipo: 'aviso', datos: {} },
      });
      await subscriber.quietFor(600);
      expect(subscriber.received.filter((m) => m.method === 'notifications/resources/updated')).toHaveLength(
        3,
      );
      expect(publisher.received.some((m) => m.method === 'notifications/resources/updated')).toBe(false);

      // The other process reads what was published: one log.
      const read = await subscriber.request('tools/call', {
        name: 'leer_eventos',
        arguments: { topico: 'compartido' },
      });
      expect(wireData<{ eventos: unknown[] }>(read).eventos).toHaveLength(3);
    });
  });
});
