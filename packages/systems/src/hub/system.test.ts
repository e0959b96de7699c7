import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, SystemError } from '@code-cluster/shared';
import { HubClient, MAX_EVENT_DATA_BYTES } from '@code-cluster/shared/hub';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { engineForTests } from '../../../../scripts/engines/engines.mjs';
import { encodeCursor } from './cursor.js';
import type { JetStreamLog } from './jetstream.js';
import type { HubLog } from './log.js';
import { createHubSystem, type HubSystem, type HubSystemOptions, openHubSystem } from './system.js';

const dirs: string[] = [];
const systems: HubSystem<HubLog>[] = [];
afterEach(async () => {
  for (const system of systems.splice(0)) await system.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'code-hub-'));
  dirs.push(dir);
  return join(dir, 'hub.db');
}

/** The same behaviour on each store: SQLite always, JetStream when a NATS is reachable (own streams). */
const natsUrl = await engineForTests(
  'nats',
  'hub system on JetStream (packages/systems/src/hub/system.test.ts)',
);
const run = randomUUID().slice(0, 8);
const streams: string[] = [];
afterAll(async () => {
  if (!natsUrl || streams.length === 0) return;
  const connection = await connect({ servers: natsUrl });
  const jsm = await jetstreamManager(connection);
  for (const stream of streams) await jsm.streams.delete(stream).catch(() => undefined);
  await connection.close();
});

interface Engine {
  name: string;
  /** A new, empty log: a file, or a stream. */
  place(): string;
  create(place: string, options: HubSystemOptions): Promise<HubSystem<HubLog>>;
}

const engines: Engine[] = [
  { name: 'SQLite', place: tempFile, create: async (file, options) => createHubSystem({ file, ...options }) },
  ...(natsUrl
    ? [
        {
          name: 'JetStream',
          place: () => {
            const stream = `TEST_HUB_${run}_${streams.length}`;
            streams.push(stream);
            return stream;
          },
          create: (stream: string, options: HubSystemOptions) =>
            openHubSystem({ natsUrl, natsStream: stream, ...options }),
        },
      ]
    : []),
];

/** The SystemError a call fails with (status and message), or undefined when it succeeds. */
async function failure(work: Promise<unknown>): Promise<SystemError | undefined> {
  try {
    await work;
    return undefined;
  } catch (error) {
    if (error instanceof SystemError) return error;
    throw error;
  }
}

describe.each(engines)('on $name', (engine) => {
  async function open(options: HubSystemOptions & { place?: string } = {}) {
    const { place, ...rest } = options;
    const system = await engine.create(place ?? engine.place(), rest);
    systems.push(system);
    const hub = new HubClient(
      inProcessTransport(() => system.handler),
      { watcher: system.watcher },
    );
    return { system, hub };
  }

  describe('publishing and reading', () => {
    it('gives each topic its own gap-free sequence, and reads oldest first', async () => {
      const { hub } = await open();
      const a1 = await hub.publish('alertas', { type: 'alerta.nueva', data: { n: 1 } });
      const b1 = await hub.publish('contactos', { type: 'contacto.agendado', data: { n: 1 } });
      const a2 = await hub.publish('alertas', { type: 'alerta.nueva', data: { n: 2 } });
      expect([a1.event.seq, b1.event.seq, a2.event.seq]).toEqual([1, 1, 2]);
      expect(a1.duplicate).toBe(false);
      const page = await hub.read('alertas');
      expect(page.events.map((e) => [e.seq, e.data.n])).toEqual([
        [1, 1],
        [2, 2],
      ]);
      expect(page.events[0]).toMatchObject({ topic: 'alertas', type: 'alerta.nueva', idempotency_key: null });
      expect(page.events[0]!.published_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(page.has_more).toBe(false);
      expect(page.next_cursor).toBe(a2.event.cursor);
    });

    it('pages with cursors: limit, has_more, and an empty read at the end that keeps the cursor', async () => {
      const { hub } = await open();
      for (let i = 1; i <= 25; i++) await hub.publish('log', { type: 'linea', data: { i } });
      const seen: number[] = [];
      let cursor: string | undefined;
      const pages: boolean[] = [];
      for (;;) {
        const page = await hub.read('log', { after: cursor, limit: 10 });
        seen.push(...page.events.map((e) => e.data.i as number));
        pages.push(page.has_more);
        cursor = page.next_cursor;
        if (!page.has_more) break;
      }
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(pages).toEqual([true, true, false]);
      const end = await hub.read('log', { after: cursor });
      expect(end.events).toEqual([]);
      expect(end.next_cursor).toBe(cursor);
      await hub.publish('log', { type: 'linea', data: { i: 26 } });
      expect((await hub.read('log', { after: cursor })).events.map((e) => e.seq)).toEqual([26]);
    });

    it('refuses a cursor that is forged or belongs to another topic, with 400', async () => {
      const { hub } = await open();
      await hub.publish('uno', { type: 't', data: {} });
      await hub.publish('dos', { type: 't', data: {} });
      const other = await failure(hub.read('uno', { after: encodeCursor('dos', 1) }));
      expect(other?.status).toBe(400);
      expect(other?.message).toContain("pertenece al tópico 'dos'");
      const forged = await failure(hub.read('uno', { after: 'no-es-un-cursor' }));
      expect(forged?.status).toBe(400);
      expect(forged?.message).toContain('no es válido');
    });

    it('answers 404 naming the known topics for a topic nobody published to', async () => {
      const { hub } = await open();
      await hub.publish('existente', { type: 't', data: {} });
      const error = await failure(hub.read('inexistente'));
      expect(error?.status).toBe(404);
      expect(error?.message).toContain("El tópico 'inexistente' no existe");
      expect(error?.message).toContain('existente');
      expect((await failure(hub.getTopic('inexistente')))?.status).toBe(404);
    });

    it('lists topics with where their logs stand', async () => {
      const { hub } = await open({ now: () => Date.parse('2026-11-30T03:14:00Z') });
      await hub.publish('b.topico', { type: 't', data: {} });
      await hub.publish('a-topico', { type: 't', data: {} });
      await hub.publish('a-topico', { type: 't', data: {} });
      const { topics } = await hub.listTopics();
      expect(topics.map((t) => [t.name, t.last_seq, t.event_count, t.first_seq])).toEqual([
        ['a-topico', 2, 2, 1],
        ['b.topico', 1, 1, 1],
      ]);
      expect(topics[0]!.last_published_at).toBe('2026-11-30T03:14:00.000Z');
      // Reading from last_cursor returns only what comes next.
      expect((await hub.read('a-topico', { after: topics[0]!.last_cursor })).events).toEqual([]);
    });
  });

  it('reads the newest events with last, oldest first, and refuses last with after', async () => {
    const { hub } = await open();
    for (let i = 1; i <= 6; i++) await hub.publish('t', { type: 'x', data: { i } });
    const page = await hub.read('t', { last: 3 });
    expect(page.events.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(page.has_more).toBe(false);
    expect((await hub.read('t', { last: 50 })).events).toHaveLength(6);
    const both = await failure(hub.read('t', { last: 2, after: page.next_cursor }));
    expect(both?.status).toBe(400);
  });

  describe('topic names', () => {
    it.each(['misiones.alertas', 'estacion-mx', 'a', '0', 'x'.repeat(64), 'v2.contactos-agendados.mx'])(
      'accepts %s',
      async (topic) => {
        const { hub } = await open();
        expect((await hub.publish(topic, { type: 't', data: {} })).event.topic).toBe(topic);
      },
    );

    it.each([
      'Mayusculas',
      'con espacio',
      'a..b',
      '.empieza',
      'termina-',
      'termina.',
      'comodín',
      'hub.*',
      'a>b',
      'a_b',
      'x'.repeat(65),
    ])('refuses %j with 400 naming the rule', async (topic) => {
      const { hub } = await open();
      const error = await failure(hub.publish(topic, { type: 't', data: {} }));
      expect(error?.status).toBe(400);
      expect(error?.message).toContain('Nombre de tópico inválido');
      expect(error?.message).toContain('64');
    });
  });

  describe('idempotency keys', () => {
    it('stores a retried publish once and answers the original event', async () => {
      const { hub } = await open();
      const first = await hub.publish('pagos', {
        type: 'pago',
        data: { a: 1, b: 2 },
        idempotency_key: 'k-1',
      });
      // The same content with its keys in another order is the same event.
      const retry = await hub.publish('pagos', {
        type: 'pago',
        data: { b: 2, a: 1 },
        idempotency_key: 'k-1',
      });
      expect(first.duplicate).toBe(false);
      expect(retry.duplicate).toBe(true);
      expect(retry.event).toEqual(first.event);
      const page = await hub.read('pagos');
      expect(page.events).toHaveLength(1);
      expect(page.events[0]!.idempotency_key).toBe('k-1');
    });

    it('keeps keys across restarts of the hub', async () => {
      const file = engine.place();
      const before = await open({ place: file });
      const first = await before.hub.publish('t', { type: 'x', data: { v: 1 }, idempotency_key: 'k' });
      await before.system.close();
      systems.splice(systems.indexOf(before.system), 1);
      const after = await open({ place: file });
      const retry = await after.hub.publish('t', { type: 'x', data: { v: 1 }, idempotency_key: 'k' });
      expect(retry).toEqual({ event: first.event, duplicate: true });
      expect((await after.hub.read('t')).events).toHaveLength(1);
    });

    it('refuses a key reused for different content with 409, storing nothing', async () => {
      const { hub } = await open();
      await hub.publish('t', { type: 'x', data: { v: 1 }, idempotency_key: 'k' });
      const error = await failure(hub.publish('t', { type: 'x', data: { v: 2 }, idempotency_key: 'k' }));
      expect(error?.status).toBe(409);
      expect(error?.message).toContain("La clave de idempotencia 'k' ya se usó");
      expect((await hub.read('t')).events).toHaveLength(1);
    });

    it('scopes keys to their topic', async () => {
      const { hub } = await open();
      await hub.publish('uno', { type: 'x', data: {}, idempotency_key: 'k' });
      const other = await hub.publish('dos', { type: 'x', data: {}, idempotency_key: 'k' });
      expect(other.duplicate).toBe(false);
    });

    it('remembers a key after count retention removed its event', async () => {
      const { hub } = await open({ retention: { maxEventsPerTopic: 2 } });
      const first = await hub.publish('t', { type: 'x', data: {}, idempotency_key: 'primero' });
      for (let i = 0; i < 3; i++) await hub.publish('t', { type: 'x', data: { i } });
      const retry = await hub.publish('t', { type: 'x', data: {}, idempotency_key: 'primero' });
      expect(retry).toEqual({ event: first.event, duplicate: true });
      expect((await hub.getTopic('t')).last_seq).toBe(4);
    });
  });

  describe('limits', () => {
    const padded = (bytes: number) => {
      // {"p":"…"} is 8 bytes of JSON around the padding.
      return { p: 'x'.repeat(bytes - 8) };
    };

    it(`accepts data of exactly ${MAX_EVENT_DATA_BYTES} bytes and refuses one more with 413`, async () => {
      const { hub } = await open();
      expect(Buffer.byteLength(JSON.stringify(padded(MAX_EVENT_DATA_BYTES)))).toBe(MAX_EVENT_DATA_BYTES);
      await hub.publish('t', { type: 'x', data: padded(MAX_EVENT_DATA_BYTES) });
      const error = await failure(hub.publish('t', { type: 'x', data: padded(MAX_EVENT_DATA_BYTES + 1) }));
      expect(error?.status).toBe(413);
      expect(error?.message).toContain(`${MAX_EVENT_DATA_BYTES + 1} bytes`);
      expect(error?.message).toContain('64 KiB');
      expect((await hub.getTopic('t')).last_seq).toBe(1);
    });

    it('refuses a malformed publish body with 400 naming the field and the value', async () => {
      const { hub } = await open();
      const error = await failure(hub.publish('t', { type: 'Tipo Con Espacios', data: {} }));
      expect(error?.status).toBe(400);
      expect(error?.message).toContain("'type'");
      expect(error?.message).toContain('"Tipo Con Espacios"');
    });
  });

  describe('retention', () => {
    it('keeps the newest events per topic, never reuses a sequence, and reports the gap', async () => {
      const { hub } = await open({ retention: { maxEventsPerTopic: 5 } });
      for (let i = 1; i <= 8; i++) await hub.publish('t', { type: 'x', data: { i } });
      const page = await hub.read('t');
      expect(page.events.map((e) => e.seq)).toEqual([4, 5, 6, 7, 8]);
      expect(page.gap).toBe(true);
      expect((await hub.read('t', { after: encodeCursor('t', 3) })).gap).toBe(false);
      expect((await hub.publish('t', { type: 'x', data: {} })).event.seq).toBe(9);
      const topic = await hub.getTopic('t');
      expect([topic.first_seq, topic.last_seq, topic.event_count]).toEqual([5, 9, 5]);
    });

    // JetStream ages messages by the server's clock, which a test cannot move: its limits are checked below.
    it.runIf(engine.name === 'SQLite')(
      'removes events and idempotency keys older than the retention age',
      async () => {
        let now = Date.parse('2026-01-01T00:00:00Z');
        const { hub } = await open({ now: () => now, retention: { maxAgeMs: 3_600_000 } });
        const old = await hub.publish('t', { type: 'x', data: { v: 'viejo' }, idempotency_key: 'k' });
        now += 2 * 3_600_000;
        const fresh = await hub.publish('t', { type: 'x', data: { v: 'nuevo' } });
        expect((await hub.read('t')).events.map((e) => e.seq)).toEqual([fresh.event.seq]);
        // The key expired with its retention period: the same key now stores a new event.
        const again = await hub.publish('t', { type: 'x', data: { v: 'viejo' }, idempotency_key: 'k' });
        expect(again.duplicate).toBe(false);
        expect(again.event.seq).toBe(old.event.seq + 2);
      },
    );
  });

  it.runIf(engine.name === 'JetStream')('keeps its retention as the stream limits', async () => {
    const { system } = await open({ retention: { maxEventsPerTopic: 7, maxAgeMs: 3_600_000 } });
    const log = system.store as JetStreamLog;
    const { config } = await (await jetstreamManager(log.connection)).streams.info(log.stream);
    expect(config).toMatchObject({
      max_msgs_per_subject: 7,
      max_age: 3_600_000 * 1_000_000,
      subjects: [`hub.${log.stream}.t.*`, `hub.${log.stream}.k.*.*`],
    });
  });

  describe('watching topics', () => {
    const waitUntil = async (test: () => boolean, ms: number) => {
      const started = performance.now();
      while (!test()) {
        if (performance.now() - started > ms) return false;
        await new Promise((r) => setTimeout(r, 10));
      }
      return true;
    };

    it('tells a watcher of this process at once, once per publish', async () => {
      const { hub } = await open();
      let changes = 0;
      const stop = await hub.watch('t', () => changes++);
      await hub.publish('t', { type: 'x', data: {} });
      expect(changes).toBe(1);
      await hub.publish('otro', { type: 'x', data: {} });
      await hub.publish('t', { type: 'x', data: {}, idempotency_key: 'k' });
      await hub.publish('t', { type: 'x', data: {}, idempotency_key: 'k' });
      expect(changes).toBe(2);
      stop();
      await hub.publish('t', { type: 'x', data: {} });
      expect(changes).toBe(2);
    });

    it('notices a publish by another connection to the same file within a second', async () => {
      const file = engine.place();
      const watching = await open({ place: file });
      const publishing = await open({ place: file });
      let changes = 0;
      const stop = await watching.hub.watch('compartido', () => changes++);
      const started = performance.now();
      await publishing.hub.publish('compartido', { type: 'x', data: {} });
      expect(await waitUntil(() => changes === 1, 1_000)).toBe(true);
      expect(performance.now() - started).toBeLessThan(1_000);
      await publishing.hub.publish('otro', { type: 'x', data: {} });
      await new Promise((r) => setTimeout(r, 500));
      expect(changes).toBe(1);
      stop();
      await publishing.hub.publish('compartido', { type: 'x', data: {} });
      await new Promise((r) => setTimeout(r, 500));
      expect(changes).toBe(1);
    });
  });
});
