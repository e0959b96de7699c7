// Two HTTP replicas of hub-mcp on one JetStream stream, each with a data dir of its own (all they share is
// the stream), driven by the official SDK client over Streamable HTTP as a team behind a load balancer
// would be: a subscriber on one replica hears a publish on the other, and a replica killed -9 in the middle
// of 300 publishes loses no acknowledged event and duplicates none when the client retries on the other.
import { Replicas } from '@code-cluster/testkit/replicas';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { engineForTests } from '../../../scripts/engines/engines.mjs';
import { deleteStreams, uniqueStream } from './nats.js';

const natsUrl = await engineForTests(
  'nats',
  'hub-mcp HTTP replicas on JetStream (apps/hub/test/replicas.test.ts)',
);
const streams: string[] = [];
const started: Replicas[] = [];
afterAll(async () => {
  for (const replicas of started) await replicas.close();
  await deleteStreams(natsUrl, streams);
});

/** Two replicas on a stream of their own, and a client on each. */
async function twoReplicas(label: string): Promise<{ replicas: Replicas; onA: Client; onB: Client }> {
  const replicas = await Replicas.start('hub', {
    HUB_NATS_URL: natsUrl!,
    HUB_NATS_STREAM: uniqueStream(streams, label),
  });
  started.push(replicas);
  const [onA, onB] = await Promise.all([replicas.connect(0), replicas.connect(1)]);
  return { replicas, onA, onB };
}

type Published = { evento: { secuencia: number }; duplicado: boolean };
const publish = (sdk: Client, topico: string, i: number) =>
  sdk.callTool({
    name: 'publicar_evento',
    arguments: { topico, tipo: 'n', datos: { i }, clave_idempotencia: `k-${i}` },
  });

describe.skipIf(!natsUrl)('hub-mcp: two HTTP replicas on one JetStream stream', () => {
  it('notifies a subscriber on replica A of a publish made on replica B', async () => {
    const { onA: subscriber, onB: publisher } = await twoReplicas('notify');
    const updates: string[] = [];
    let heard: () => void = () => undefined;
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updates.push(notification.params.uri);
      heard();
    });
    await subscriber.subscribeResource({ uri: 'hub://topicos/compartido' });

    for (let round = 1; round <= 3; round++) {
      const notified = new Promise<void>((resolve) => {
        heard = resolve;
      });
      const result = await publisher.callTool({
        name: 'publicar_evento',
        arguments: { topico: 'compartido', tipo: 'aviso', datos: { round } },
      });
      expect((result.structuredContent as Published).evento.secuencia).toBe(round);
      await notified;
    }
    expect(updates).toEqual(Array(3).fill('hub://topicos/compartido'));

    // B's publishes are A's to read: one log, whichever replica answers.
    const read = await subscriber.callTool({ name: 'leer_eventos', arguments: { topico: 'compartido' } });
    expect((read.structuredContent as { eventos: unknown[] }).eventos).toHaveLength(3);
  });

  it('loses no acknowledged publish when a replica is killed -9 mid-stream, and a retry on the other duplicates none', {
    timeout: 60_000,
  }, async () => {
    const { replicas, onA, onB } = await twoReplicas('kill');
    const TOTAL = 300;
    const acked = new Map<number, number>();
    // Eight publishers at once on A (its --max-inflight), each taking the next index; A dies once some,
    // not all, are acknowledged, with publishes still in flight.
    let next = 0;
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        const result = await publish(onA, 'flujo', i).catch(() => undefined);
        if (!result) return;
        if (!result.isError) acked.set(i, (result.structuredContent as Published).evento.secuencia);
      }
    };
    const inFlight = Array.from({ length: 8 }, worker);
    await expect.poll(() => acked.size, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(41);
    const exit = await replicas.servers[0]!.stop('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    // The client gives up on the dead replica: what was in flight there is unanswered, not acknowledged.
    await onA.close();
    await Promise.allSettled(inFlight);
    expect(acked.size).toBeLessThan(TOTAL);

    // The client retries everything it sent, with the same keys, on replica B.
    for (let i = 0; i < TOTAL; i++) {
      const result = (await publish(onB, 'flujo', i)).structuredContent as Published;
      if (acked.has(i)) {
        expect(result.duplicado).toBe(true);
        expect(result.evento.secuencia).toBe(acked.get(i));
      }
    }
    const seen: number[] = [];
    let desde: string | undefined;
    for (;;) {
      const page = (
        await onB.callTool({
          name: 'leer_eventos',
          arguments: { topico: 'flujo', limite: 100, ...(desde ? { desde } : {}) },
        })
      ).structuredContent as {
        eventos: Array<{ datos: { i: number } }>;
        siguiente_cursor: string;
        hay_mas: boolean;
      };
      seen.push(...page.eventos.map((e) => e.datos.i));
      desde = page.siguiente_cursor;
      if (!page.hay_mas) break;
    }
    expect(seen).toHaveLength(TOTAL);
    expect(new Set(seen).size).toBe(TOTAL);
  });
});
