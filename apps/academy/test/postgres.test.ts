// academy-mcp's built bin on PostgreSQL: consulta_sql parsed by libpg-query inside the bundle and run as
// the SELECT-only role; and the start refusals (one stderr line naming the variable, exit 2).
import { randomBytes } from 'node:crypto';
import { migrateAcademy } from '@code-cluster/systems/academy';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAcademy, tempDataDir } from './helpers.js';

const db: TestDatabase | undefined = await freshDatabase(
  'academy-mcp on PostgreSQL (apps/academy/test/postgres.test.ts)',
);
const role = `academy_app_${process.pid}_${randomBytes(3).toString('hex')}`;
const data = tempDataDir();
beforeAll(async () => {
  if (db) await migrateAcademy({ databaseUrl: db.url, analyticsUrl: db.urlAs(role) });
});
afterAll(async () => {
  data.remove();
  if (!db) return;
  // The role's grants live in this database only: dropped with them here, then the database goes.
  await db.query(`DROP OWNED BY "${role}"`);
  await db.query(`DROP ROLE "${role}"`);
  await db.drop();
});

const result = (m: { result?: unknown }) =>
  m.result as {
    isError?: boolean;
    content: Array<{ text: string }>;
    structuredContent?: Record<string, unknown>;
  };

describe('academy-mcp refuses to start on PostgreSQL settings it cannot use', () => {
  const track = trackPeers();

  it('exits 2 with one stderr line naming ACADEMY_DATABASE_URL when nothing listens there', async () => {
    const peer = spawnAcademy(data.dir, [], {
      ACADEMY_DATABASE_URL: 'postgres://postgres:secreto@127.0.0.1:1/nada',
      ACADEMY_ANALYTICS_DATABASE_URL: 'postgres://lector@127.0.0.1:1/nada',
    });
    track(peer);
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    const lines = peer.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ACADEMY_DATABASE_URL');
    expect(lines[0]).not.toContain('secreto');
  });

  it('exits 2 naming ACADEMY_ANALYTICS_DATABASE_URL when it is missing', async () => {
    const peer = spawnAcademy(data.dir, [], { ACADEMY_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nada' });
    track(peer);
    expect((await peer.exited).code).toBe(2);
    const lines = peer.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ACADEMY_ANALYTICS_DATABASE_URL is not set');
  });

  it.skipIf(!db)(
    'exits 2 naming ACADEMY_ANALYTICS_DATABASE_URL when that role can write (the admin URL)',
    async () => {
      const peer = spawnAcademy(data.dir, [], {
        ACADEMY_DATABASE_URL: db!.url,
        ACADEMY_ANALYTICS_DATABASE_URL: db!.url,
      });
      track(peer);
      expect((await peer.exited).code).toBe(2);
      const lines = peer.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^academy-mcp: ACADEMY_ANALYTICS_DATABASE_URL .*superuser/);
    },
  );
});

describe.skipIf(!db)('academy-mcp on PostgreSQL (built bin)', () => {
  const track = trackPeers();

  it('answers consulta_sql through libpg-query in the bundle, refuses a write, and changes nothing', async () => {
    const peer = spawnAcademy(data.dir, ['--database-url', db!.url], {
      ACADEMY_ANALYTICS_DATABASE_URL: db!.urlAs(role),
    });
    track(peer);
    await peer.initialize();
    const read = result(
      await peer.request('tools/call', {
        name: 'consulta_sql',
        arguments: { sql: 'SELECT count(*) AS n FROM estudiantes WHERE pais = $1', parametros: ['MX'] },
      }),
    );
    expect(read.isError, JSON.stringify(read)).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ columnas: ['n'], filas: [[5]], truncado: false });
    const count = async () =>
      (await db!.query<{ n: string }>('SELECT count(*) AS n FROM academy.avances'))[0]!.n;
    const before = await count();
    for (const sql of [
      'WITH d AS (DELETE FROM avances RETURNING 1) SELECT * FROM d',
      "SELECT lo_from_bytea(0, 'x')",
    ]) {
      const write = result(await peer.request('tools/call', { name: 'consulta_sql', arguments: { sql } }));
      expect(write.isError).toBe(true);
      expect(write.content[0]!.text).toMatch(/DELETE|lo_from_bytea/);
    }
    expect(await count()).toBe(before);
    const progress = result(
      await peer.request('tools/call', {
        name: 'progreso_estudiante',
        arguments: { estudiante: 'ana-garcia' },
      }),
    );
    expect(progress.isError).toBeFalsy();
    await peer.close();
  });

  it('two server processes on one database are replicas: what one records, the other reads', async () => {
    const env = { ACADEMY_DATABASE_URL: db!.url, ACADEMY_ANALYTICS_DATABASE_URL: db!.urlAs(role) };
    const [a, b] = [spawnAcademy(data.dir, [], env), spawnAcademy(tempDataDir().dir, [], env)];
    track(a);
    track(b);
    await Promise.all([a.initialize(), b.initialize()]);
    const recorded = result(
      await a.request('tools/call', {
        name: 'registrar_avance',
        arguments: { estudiante: 'ana-garcia', leccion: 'mcp-02-ciclo-de-vida' },
      }),
    );
    expect(recorded.structuredContent, JSON.stringify(recorded)).toMatchObject({
      ya_estaba_completada: false,
    });
    const seen = result(
      await b.request('tools/call', {
        name: 'consulta_sql',
        arguments: {
          sql: 'SELECT count(*) FROM avances WHERE estudiante_id = $1 AND leccion_id = $2',
          parametros: ['ana-garcia', 'mcp-02-ciclo-de-vida'],
        },
      }),
    );
    expect(seen.structuredContent).toMatchObject({ filas: [[1]] });
    await Promise.all([a.close(), b.close()]);
  });
});
