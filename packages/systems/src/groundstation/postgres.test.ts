// The ground station on PostgreSQL beyond what system.test.ts runs on both engines: the database itself
// refuses a double booking (exclusion constraints), a writer that got there first is named by the loser,
// two replicas (two pools on one schema) racing for one window yield exactly one winner, and
// `code-systems migrate groundstation` is idempotent.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { freePort, rejectionOf } from '@code-cluster/testkit';
import { freshDatabase } from '@code-cluster/testkit/postgres';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ContactRow, GroundstationStore } from './store.js';
import { openPostgresStore } from './store-postgres.js';
import { type GroundstationSystem, openGroundstationSystem } from './system.js';

const db = await freshDatabase(
  'groundstation on PostgreSQL (packages/systems/src/groundstation/postgres.test.ts)',
);
afterAll(() => db?.drop());

const NOW = Date.parse('2026-12-01T10:30:00Z');
const at = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();
const ms = (minutes: number) => NOW + minutes * 60_000;
/** Geostationary over orbiteye-mx: valid at any time. */
const MEXSAT_3 = 39035;
const MORELOS_3 = 40946;
const OPERATOR_TOKEN = 'operator-secret-for-tests';
const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

let schemas = 0;
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of opened.splice(0)) await thing.close();
});

async function store(schema: string): Promise<GroundstationStore> {
  const s = await openPostgresStore({ url: db!.url, schema });
  opened.push(s);
  return s;
}

/** A replica: its own system, its own pool, on the shared schema. */
async function replica(schema: string) {
  const system: GroundstationSystem = await openGroundstationSystem({
    databaseUrl: db!.url,
    databaseSchema: schema,
    now: () => NOW,
    operatorToken: OPERATOR_TOKEN,
  });
  opened.push(system);
  const transport = inProcessTransport(() => system.handler);
  return {
    system,
    client: new GroundstationClient(transport, { retries: 0 }),
    operator: new GroundstationClient(transport, { operatorToken: OPERATOR_TOKEN, retries: 0 }),
  };
}

const newSchema = () => `gs_pg_${++schemas}`;

function contact(overrides: Partial<ContactRow>): ContactRow {
  return {
    id: `ct-${String(Math.random()).slice(2, 14).padEnd(12, '0')}`,
    station: 'orbiteye-mx',
    antenna: 'mx-s1',
    norad_id: MEXSAT_3,
    start_ms: ms(60),
    end_ms: ms(70),
    status: 'programado',
    created_ms: NOW,
    cancelled_ms: null,
    ...overrides,
  };
}

/** Resolves once a statement of the ground station on this database waits for another transaction's lock. */
async function someoneWaits(): Promise<void> {
  for (;;) {
    const [row] = await db!.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'code-cluster-groundstation'
         AND wait_event_type = 'Lock'`,
    );
    if (row!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A writer that does not take turns (no advisory lock): BEGIN, one statement, and COMMIT when told. */
async function rawWriter(sql: string, params: unknown[]) {
  const client = new pg.Client({ connectionString: db!.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(sql, params);
  return {
    commit: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

describe.skipIf(!db)('the contact book on PostgreSQL', () => {
  it('refuses by itself a second contact on one antenna, and one satellite on two antennas, at once', async () => {
    const schema = newSchema();
    const s = await store(schema);
    const first = contact({});
    expect(await s.insertContact(first)).toBe(true);
    // No transaction, no check before: only the exclusion constraints stand in the way.
    expect(await s.insertContact(contact({ norad_id: MORELOS_3, start_ms: ms(69), end_ms: ms(80) }))).toBe(
      false,
    );
    expect(await s.insertContact(contact({ antenna: 'mx-x1', start_ms: ms(65), end_ms: ms(75) }))).toBe(
      false,
    );
    // Back to back, another station, or over a cancelled contact: no overlap.
    expect(await s.insertContact(contact({ norad_id: MORELOS_3, start_ms: ms(70), end_ms: ms(80) }))).toBe(
      true,
    );
    expect(await s.insertContact(contact({ station: 'orbiteye-es', antenna: 'es-s1' }))).toBe(true);
    await s.cancelContact(first.id, NOW);
    expect(await s.insertContact(contact({ norad_id: MORELOS_3, start_ms: ms(60), end_ms: ms(65) }))).toBe(
      true,
    );
    const active = await s.activeContacts('orbiteye-mx', 0, Number.MAX_SAFE_INTEGER);
    expect(active.map((c) => [c.norad_id, c.start_ms, c.end_ms])).toEqual([
      [MORELOS_3, ms(60), ms(65)],
      [MORELOS_3, ms(70), ms(80)],
    ]);
    // The times are timestamptz columns, to the millisecond.
    const [row] = await db!.query<{ inicio: Date; kind: string }>(
      `SELECT inicio, pg_typeof(inicio)::text AS kind FROM ${schema}.contact WHERE id = $1`,
      [first.id],
    );
    expect(row).toEqual({ inicio: new Date(ms(60)), kind: 'timestamp with time zone' });
    expect((await s.getContact(first.id))?.cancelled_ms).toBe(NOW);
  });

  it('goes on with a transaction after a refused insert, and keeps what it wrote', async () => {
    const s = await store(newSchema());
    await s.insertContact(contact({}));
    const kept = contact({ start_ms: ms(90), end_ms: ms(100) });
    await s.transaction(async (tx) => {
      expect(await tx.insertContact(contact({ norad_id: MORELOS_3 }))).toBe(false);
      expect(await tx.insertContact(kept)).toBe(true);
    }, 'orbiteye-mx');
    expect((await s.getContact(kept.id))?.status).toBe('programado');
  });

  it('refuses the same maintenance window twice unless the first was cancelled', async () => {
    const s = await store(newSchema());
    const window = {
      id: 'mt-aaaaaaaaaaaa',
      station: 'orbiteye-mx',
      start_ms: ms(60),
      end_ms: ms(120),
      reason: 'Cambio del rodamiento',
      source: 'operador' as const,
      created_ms: NOW,
      cancelled_ms: null,
    };
    expect(await s.insertMaintenance(window)).toBe(true);
    expect(await s.insertMaintenance({ ...window, id: 'mt-bbbbbbbbbbbb' })).toBe(false);
    expect(await s.insertMaintenance({ ...window, id: 'mt-cccccccccccc', reason: 'Otra cosa' })).toBe(true);
    await s.cancelMaintenance(window.id, NOW);
    expect(await s.insertMaintenance({ ...window, id: 'mt-dddddddddddd' })).toBe(true);
    // The reference window was seeded by the migration, once.
    expect((await s.maintenanceEndingAfter('orbiteye-cl', NOW)).map((w) => w.id)).toEqual([
      'mt-00000000c1a0',
    ]);
  });
});

describe.skipIf(!db)('a writer that got there first is named by the loser', () => {
  it('on the antenna: the booking waits on the exclusion constraint, then answers who holds the slot', async () => {
    const schema = newSchema();
    const { client } = await replica(schema);
    const winner = contact({ norad_id: MORELOS_3 });
    const raw = await rawWriter(
      `INSERT INTO ${schema}.contact VALUES ($1, $2, $3, $4, $5, $6, 'programado', $7, NULL)`,
      [winner.id, winner.station, winner.antenna, winner.norad_id, at(60), at(70), at(0)],
    );
    const booking = rejectionOf<SystemError>(
      client.bookContact({
        station: 'orbiteye-mx',
        norad_id: MEXSAT_3,
        start: at(65),
        end: at(75),
        antenna: 'mx-s1',
      }),
    );
    await someoneWaits();
    await raw.commit();
    const error = await booking;
    expect(error.status).toBe(409);
    expect(error.message).toContain(
      `La antena mx-s1 de orbiteye-mx ya está reservada en ese intervalo: contacto ${winner.id}`,
    );
    expect(error.details).toMatchObject({ conflicts: [{ contact_id: winner.id, antenna: 'mx-s1' }] });
  });

  it('on the satellite: the refusal names its contact on the other antenna', async () => {
    const schema = newSchema();
    const { client } = await replica(schema);
    const winner = contact({ antenna: 'mx-x1' });
    const raw = await rawWriter(
      `INSERT INTO ${schema}.contact VALUES ($1, $2, $3, $4, $5, $6, 'programado', $7, NULL)`,
      [winner.id, winner.station, winner.antenna, winner.norad_id, at(60), at(70), at(0)],
    );
    const booking = rejectionOf<SystemError>(
      client.bookContact({ station: 'orbiteye-mx', norad_id: MEXSAT_3, start: at(60), end: at(70) }),
    );
    await someoneWaits();
    await raw.commit();
    const error = await booking;
    expect(error.status).toBe(409);
    expect(error.message).toContain(`NORAD ${MEXSAT_3} ya tiene un contacto en orbiteye-mx`);
    expect(error.details).toMatchObject({ conflicts: [{ contact_id: winner.id, antenna: 'mx-x1' }] });
  });

  it('on a maintenance window: the same one programmed meanwhile is named', async () => {
    const schema = newSchema();
    const { operator } = await replica(schema);
    const raw = await rawWriter(
      `INSERT INTO ${schema}.maintenance VALUES ('mt-0000000000ff', 'orbiteye-mx', $1, $2, 'Pintura', 'operador', $3, NULL)`,
      [at(60), at(120), at(0)],
    );
    const programming = rejectionOf<SystemError>(
      operator.programMaintenance('orbiteye-mx', { start: at(60), end: at(120), reason: 'Pintura' }),
    );
    await someoneWaits();
    await raw.commit();
    const error = await programming;
    expect(error.status).toBe(409);
    expect(error.message).toContain('Esa ventana ya está programada en orbiteye-mx: mt-0000000000ff');
  });
});

describe.skipIf(!db)('two replicas racing on one PostgreSQL', () => {
  it('20 bookings of one window on one antenna through two pools: exactly one wins, every loser names it', async () => {
    const schema = newSchema();
    const replicas = [await replica(schema), await replica(schema)];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        replicas[i % 2]!.client.bookContact({
          station: 'orbiteye-mx',
          norad_id: i % 4 < 2 ? MEXSAT_3 : MORELOS_3,
          start: at(60),
          end: at(70),
          antenna: 'mx-s1',
        }),
      ),
    );
    const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(won).toHaveLength(1);
    const winner = won[0]!;
    const lost = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as SystemError] : []));
    expect(lost).toHaveLength(19);
    for (const error of lost) {
      expect(error.status).toBe(409);
      expect(error.message).toContain(`contacto ${winner.id} en la antena mx-s1`);
      expect(error.details).toMatchObject({ conflicts: [{ contact_id: winner.id }] });
    }
    // Both replicas see the one booking.
    for (const r of replicas) {
      expect((await r.client.schedule('orbiteye-mx', { hours: 2 })).contacts.map((c) => c.id)).toEqual([
        winner.id,
      ]);
    }
  });

  it('bookings racing a maintenance window over them: one side wins each round, the other names it', async () => {
    const schema = newSchema();
    const [a, b] = [await replica(schema), await replica(schema)];
    const wins = { contact: 0, maintenance: 0 };
    for (let round = 0; round < 10; round++) {
      const base = 120 + round * 300;
      const book = (r: typeof a, antenna: string, norad: number) =>
        r.client.bookContact({
          station: 'orbiteye-mx',
          norad_id: norad,
          start: at(base + 10),
          end: at(base + 20),
          antenna,
        });
      const [x, y, window] = await Promise.allSettled([
        book(round % 2 ? a : b, 'mx-s1', MEXSAT_3),
        book(round % 2 ? b : a, 'mx-x1', MORELOS_3),
        (round % 2 ? a : b).operator.programMaintenance('orbiteye-mx', {
          start: at(base),
          end: at(base + 30),
          reason: `Ronda ${round}`,
        }),
      ]);
      if (window.status === 'fulfilled') {
        wins.maintenance++;
        // The window came first: both bookings were refused, naming it.
        for (const o of [x, y]) {
          expect(o.status).toBe('rejected');
          const error = (o as PromiseRejectedResult).reason as SystemError;
          expect(error.message).toContain('La estación orbiteye-mx está en mantenimiento');
          expect(error.message).toContain(window.value.id);
        }
      } else {
        wins.contact++;
        // A booking came first: the window is refused naming the contacts booked before it, and with the
        // window gone nothing stood in the other booking's way.
        expect([x.status, y.status]).toEqual(['fulfilled', 'fulfilled']);
        const booked = [x, y].flatMap((o) => (o.status === 'fulfilled' ? [o.value.id] : []));
        const error = window.reason as SystemError;
        expect(error.status).toBe(409);
        const named = (error.details as { conflicts: Array<{ contact_id: string }> }).conflicts.map(
          (c) => c.contact_id,
        );
        expect(named.length).toBeGreaterThan(0);
        for (const id of named) expect(booked).toContain(id);
        for (const id of named) expect(error.message).toContain(id);
      }
    }
    expect(wins.contact + wins.maintenance).toBe(10);
  });
});

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GROUNDSTATION_DATABASE_URL: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(!db)('code-systems and the ground station on PostgreSQL (the built bin)', () => {
  it('migrate groundstation twice: the schema at version 1, the reference window seeded once, no password shown', async () => {
    const url = new URL(db!.url);
    // Trust auth ignores the password; it must not reach the output all the same.
    url.password = 'secreto-de-prueba';
    for (let time = 0; time < 2; time++) {
      const { code, stdout, stderr } = await run([
        'migrate',
        'groundstation',
        '--database-url',
        url.toString(),
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout.trim().split('\n')).toEqual([
        `groundstation: schema groundstation at version 1 on postgres://postgres@${url.host}${url.pathname}`,
      ]);
    }
    expect(await db!.query('SELECT version FROM groundstation.schema_version')).toEqual([{ version: 1 }]);
    expect(await db!.query('SELECT id FROM groundstation.maintenance')).toEqual([{ id: 'mt-00000000c1a0' }]);
    const constraints = await db!.query<{ conname: string }>(
      `SELECT conname FROM pg_constraint WHERE contype = 'x' AND connamespace = 'groundstation'::regnamespace
       ORDER BY conname`,
    );
    expect(constraints.map((c) => c.conname)).toEqual(['contact_antenna_free', 'contact_satellite_once']);
  });

  it('refuses to serve on a URL where nothing listens: exit 2, one line naming GROUNDSTATION_DATABASE_URL', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/nada`;
    const { code, stderr } = await run(['groundstation', '--port', '0', '--database-url', url]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`GROUNDSTATION_DATABASE_URL ${url}: PostgreSQL unusable`),
    ]);
  });
});

describe('code-systems migrate groundstation without a URL (the built bin)', () => {
  it('creates the SQLite file in the data dir, then finds it up to date', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-gs-migrate-'));
    try {
      for (let time = 0; time < 2; time++) {
        const { code, stdout } = await run(['migrate', 'groundstation'], { CODE_CLUSTER_DATA_DIR: dir });
        expect(code).toBe(0);
        expect(stdout).toBe(`groundstation: SQLite file ${join(dir, 'groundstation.db')} at version 2\n`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
