// consulta_sql on PostgreSQL: the shared write/escape corpus and PostgreSQL's own attempts, each refused
// with the database unchanged (a checksum of every table, the large objects and the relations); each
// wall on its own (the parser's screen, the SELECT-only role); limits; and the role checks at start.
import type { SystemError } from '@code-cluster/shared';
import { SQL_BYTE_LIMIT } from '@code-cluster/shared/academy';
import { rejectionOf } from '@code-cluster/testkit';
import type { TestDatabase } from '@code-cluster/testkit/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AcademyEngine,
  type OpenedAcademy,
  pgChecksum,
  postgresEngine,
} from '../../test/academy-engines.js';
import { WRITES } from '../../test/academy-sql-corpus.js';
import { screenPgQuery } from './pg-sql-guard.js';
import { PgReadOnlySql } from './pg-sql-runner.js';
import { SqlRefusal } from './sql-guard.js';

const engine: AcademyEngine | undefined = await postgresEngine(
  'consulta_sql on PostgreSQL (packages/systems/src/academy/pg-sql.test.ts)',
);
let academy: OpenedAcademy;
let db: TestDatabase;
beforeAll(async () => {
  if (!engine) return;
  academy = await engine.open({ sqlTimeoutMs: 1_000 });
  db = engine.database(academy.place)!;
});
afterAll(() => engine?.dispose());

const refusal = (work: Promise<unknown>) => rejectionOf<SystemError>(work);

/** PostgreSQL's own ways to write, wait, lock, signal, escape the transaction or hide a statement. */
const PG_ATTEMPTS: ReadonlyArray<[string, string]> = [
  ['lo_import', "SELECT lo_import('/etc/passwd')"],
  ['lo_from_bytea', "SELECT lo_from_bytea(0, 'x'::bytea)"],
  ['lo_put', "SELECT lo_put(1234, 0, 'x'::bytea)"],
  ['lo_create', 'SELECT lo_create(0)'],
  ['lowrite chain', "SELECT lowrite(lo_open(lo_creat(-1), 131072), 'x'::bytea)"],
  ['lo_export', "SELECT lo_export(1, '/tmp/academy-pg-export')"],
  ['dblink', "SELECT * FROM dblink('dbname=postgres', 'DELETE FROM x') AS t(a int)"],
  ['dblink_exec', "SELECT dblink_exec('dbname=postgres', 'DROP TABLE x')"],
  ['pg_advisory_lock', 'SELECT pg_advisory_lock(42)'],
  ['pg_try_advisory_lock', 'SELECT pg_try_advisory_lock(42)'],
  ['pg_advisory_xact_lock', 'SELECT pg_advisory_xact_lock(42)'],
  ['set_config', "SELECT set_config('search_path', 'public', false)"],
  [
    'set_config in where',
    "SELECT id FROM cursos WHERE set_config('statement_timeout', '0', false) IS NOT NULL",
  ],
  ['pg_notify', "SELECT pg_notify('canal', 'hola')"],
  ['for update', 'SELECT * FROM estudiantes FOR UPDATE'],
  ['for share in a subquery', 'SELECT * FROM (SELECT * FROM cursos FOR SHARE) c'],
  ['for no key update in a union', '(SELECT id FROM cursos) UNION (SELECT id FROM cursos FOR NO KEY UPDATE)'],
  ['select into', 'SELECT * INTO copia FROM estudiantes'],
  ['select into temp', 'SELECT * INTO TEMP copia FROM estudiantes'],
  ['cte that deletes', 'WITH x AS (DELETE FROM avances RETURNING *) SELECT * FROM x'],
  [
    'cte that inserts',
    "WITH x AS (INSERT INTO avances VALUES ('ana-garcia', 'mcp-02-ciclo-de-vida', 'x') RETURNING 1) SELECT 1",
  ],
  [
    'cte that updates, nested',
    "SELECT * FROM (WITH u AS (UPDATE estudiantes SET nombre = 'x' RETURNING id) SELECT id FROM u) s",
  ],
  ['merge', "MERGE INTO cursos c USING cursos d ON c.id = d.id WHEN MATCHED THEN UPDATE SET titulo = 'x'"],
  ['copy to file', "COPY estudiantes TO '/tmp/academy-pg-copy'"],
  ['copy to program', "COPY (SELECT 1) TO PROGRAM 'touch /tmp/academy-pg-pwn'"],
  ['copy from stdin', 'COPY avances FROM STDIN'],
  ['multiple statements', 'SELECT 1; DELETE FROM avances'],
  ['multiple selects', 'SELECT 1; SELECT 2'],
  ['pg_sleep', 'SELECT pg_sleep(10)'],
  ['pg_sleep_for', "SELECT pg_sleep_for('10 seconds')"],
  ['schema-qualified pg_sleep', 'SELECT pg_catalog.pg_sleep(10)'],
  ['quoted upper-case function', 'SELECT "PG_SLEEP"(1)'],
  ['pg_terminate_backend', 'SELECT pg_terminate_backend(pg_backend_pid())'],
  ['pg_cancel_backend', 'SELECT pg_cancel_backend(pid) FROM pg_stat_activity'],
  [
    'call chain hiding a function',
    "SELECT upper(lower(coalesce(NULL, query_to_xml('DELETE FROM avances', true, true, '')::text)))",
  ],
  ['table_to_xml', "SELECT table_to_xml('avances', true, true, '')"],
  ['ts_stat runs SQL text', "SELECT * FROM ts_stat('DELETE FROM avances RETURNING NULL::tsvector')"],
  ['function in a lateral from', 'SELECT * FROM cursos, LATERAL pg_sleep(1) s'],
  ['function in order by', 'SELECT id FROM cursos ORDER BY pg_advisory_lock(1)'],
  ['comment hiding a statement', 'SELECT 1 /* ; comentario */ ; DELETE FROM avances'],
  ['nested comment prefix', '/* /* anidado */ SELECT 1 */ DELETE FROM avances'],
  ['line comment prefix', '-- SELECT\nDELETE FROM avances'],
  ['do block', 'DO $$ BEGIN DELETE FROM avances; END $$'],
  ['prepare', 'PREPARE p AS DELETE FROM avances'],
  ['execute', 'EXECUTE p'],
  ['set role', 'SET ROLE postgres'],
  ['set session authorization', 'SET SESSION AUTHORIZATION postgres'],
  ['set search_path', 'SET search_path = public'],
  ['reset', 'RESET ALL'],
  ['reset role', 'RESET ROLE'],
  ['discard', 'DISCARD ALL'],
  ['begin', 'BEGIN'],
  ['commit', 'COMMIT'],
  ['listen', 'LISTEN canal'],
  ['notify', "NOTIFY canal, 'hola'"],
  ['lock table', 'LOCK TABLE avances'],
  ['truncate', 'TRUNCATE avances'],
  ['create temp table', 'CREATE TEMP TABLE t (a int)'],
  ['create extension', 'CREATE EXTENSION dblink'],
  ['declare cursor', 'DECLARE c CURSOR FOR SELECT 1'],
  ['explain analyze', 'EXPLAIN ANALYZE DELETE FROM avances'],
  ['nextval', "SELECT nextval('intentos_id_seq')"],
  ['setval', "SELECT setval('intentos_id_seq', 1)"],
  ['txid_current', 'SELECT txid_current()'],
  ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
  ['pg_ls_dir', "SELECT pg_ls_dir('.')"],
  ['pg_stat_file', "SELECT pg_stat_file('postgresql.conf')"],
  ['pg_reload_conf', 'SELECT pg_reload_conf()'],
  ['private answers', 'SELECT correcta FROM preguntas_privadas'],
  ['private responses, schema-qualified', 'SELECT respuestas_json FROM academy.intentos_privados'],
  ['unicode lookalike', 'ＳＥＬＥＣＴ 1; DELETE FROM avances'],
];

describe.skipIf(!engine)('consulta_sql on PostgreSQL refuses every write and escape attempt', () => {
  it(`has the SQLite corpus (${WRITES.length}) plus ${PG_ATTEMPTS.length} PostgreSQL attempts`, () => {
    expect(PG_ATTEMPTS.length).toBeGreaterThanOrEqual(40);
  });

  it.each([...WRITES, ...PG_ATTEMPTS])(
    'refuses %s, in Spanish, and the database is unchanged',
    async (_name, sql) => {
      const before = await pgChecksum(db);
      const error = await refusal(academy.client.query({ sql }));
      expect(error.status).toBe(422);
      expect(['guard', 'refused', 'error']).toContain((error.details as { refused?: string }).refused);
      expect(error.message).toMatch(/consulta|sentencia|función|SELECT|tabla/i);
      expect(await pgChecksum(db)).toBe(before);
    },
  );

  it('kills a runaway recursive CTE at the deadline, then answers the next query', async () => {
    const before = await pgChecksum(db);
    const error = await refusal(
      academy.client.query({
        sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
      }),
    );
    expect(error.message).toMatch(/superó el límite de 1 s y se canceló/);
    expect(await pgChecksum(db)).toBe(before);
    expect((await academy.client.query({ sql: 'SELECT count(*) AS n FROM estudiantes' })).rows).toEqual([
      [20],
    ]);
  });
});

/** Valid PostgreSQL analytics over the same tables, each answered with rows. */
const PG_LEGIT: ReadonlyArray<[string, string, Array<string | number | boolean | null>]> = [
  [
    'join',
    'SELECT e.nombre, c.titulo FROM matriculas m JOIN estudiantes e ON e.id = m.estudiante_id JOIN cursos c ON c.id = m.curso_id ORDER BY e.nombre LIMIT 5',
    [],
  ],
  [
    'aggregate',
    'SELECT curso_id, count(*) AS n FROM matriculas GROUP BY curso_id HAVING count(*) > 1 ORDER BY n DESC',
    [],
  ],
  ['parameters', 'SELECT id, nombre FROM estudiantes WHERE pais = $1 AND cohorte = $2', ['MX', '2026-A']],
  [
    'window',
    'SELECT estudiante_id, rank() OVER (PARTITION BY quiz_id ORDER BY aciertos DESC) AS puesto FROM intentos',
    [],
  ],
  [
    'filter',
    'SELECT quiz_id, count(*) FILTER (WHERE aprobado = 1) AS aprobados FROM intentos GROUP BY quiz_id',
    [],
  ],
  ['values', "VALUES (1, 'uno'), (2, 'dos')", []],
  ['table', 'TABLE cursos', []],
  [
    'string_agg',
    "SELECT curso_id, string_agg(id, ', ' ORDER BY orden) AS ids FROM lecciones GROUP BY curso_id",
    [],
  ],
  ['json', "SELECT opciones_json::jsonb ->> 'a' AS a FROM preguntas", []],
  [
    'dates',
    "SELECT date_trunc('month', alta_en::timestamptz) AS mes, count(*) FROM estudiantes GROUP BY 1",
    [],
  ],
  ['numeric', 'SELECT round(avg(horas), 2) AS media FROM cursos', []],
  ['boolean parameter', 'SELECT count(*) AS n FROM intentos WHERE aprobado = $1', [true]],
  [
    'information_schema',
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'academy'",
    [],
  ],
  ['pg_backend_pid', 'SELECT pg_backend_pid() AS pid', []],
  ['trailing semicolon and comment', '-- cuántos\nSELECT count(*) FROM cursos;', []],
  ['generate_series', 'SELECT g FROM generate_series(1, 5) g', []],
  ['views without answers', 'SELECT * FROM preguntas ORDER BY quiz_id, orden', []],
];

describe.skipIf(!engine)('consulta_sql answers valid read-only PostgreSQL', () => {
  it.each(PG_LEGIT)('runs %s', async (_name, sql, params) => {
    const before = await pgChecksum(db);
    const result = await academy.client.query({ sql, params });
    expect(result.row_count).toBeGreaterThan(0);
    expect(result.columns.length).toBeGreaterThan(0);
    expect(await pgChecksum(db)).toBe(before);
  });

  it('returns numbers as numbers, keeps two columns of one name apart and binds parameters, never splices', async () => {
    const result = await academy.client.query({
      sql: 'SELECT (SELECT count(*) FROM cursos) AS a, 2.50::numeric AS a, $1 AS b, true AS c',
      params: ["x' OR '1'='1"],
    });
    expect(result).toMatchObject({ columns: ['a', 'a', 'b', 'c'], rows: [[4, 2.5, "x' OR '1'='1", 'true']] });
    const injected = await academy.client.query({
      sql: 'SELECT id FROM estudiantes WHERE id = $1',
      params: ["ana-garcia' OR '1'='1"],
    });
    expect(injected.rows).toEqual([]);
  });

  it('says how to write parameters when the query uses ?', async () => {
    const error = await refusal(
      academy.client.query({ sql: 'SELECT id FROM cursos WHERE id = ?', params: ['mcp'] }),
    );
    expect(error.message).toContain('$1, $2');
  });

  it('destroys the connection after each query: no session outlives it', async () => {
    const pid = async () => (await academy.client.query({ sql: 'SELECT pg_backend_pid()' })).rows[0]![0];
    const first = await pid();
    const second = await pid();
    expect(first).not.toBe(second);
    const alive = await db.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [first]);
    expect(alive).toEqual([]);
  });

  it('runs as the SELECT-only role, in a READ ONLY transaction', async () => {
    const result = await academy.client.query({
      sql: "SELECT current_user AS who, current_setting('transaction_read_only') AS ro",
    });
    expect(result.rows[0]![0]).not.toBe('postgres');
    expect(result.rows[0]![1]).toBe('on');
  });

  it('stops at the row limit and at the byte limit, and says so', async () => {
    const limited = await engine!.open({ sqlRowLimit: 5 }, academy.place);
    const rows = await limited.client.query({ sql: 'SELECT * FROM avances' });
    expect(rows).toMatchObject({ row_count: 5, truncated: true, truncated_by: 'rows', row_limit: 5 });
    const bytes = await academy.client.query({
      sql: "SELECT repeat('x', 200000) AS relleno FROM avances, cursos LIMIT 500",
    });
    expect(bytes).toMatchObject({ truncated: true, truncated_by: 'bytes', byte_limit: SQL_BYTE_LIMIT });
    expect(bytes.row_count).toBeGreaterThan(0);
    expect(bytes.row_count).toBeLessThan(10);
    expect(bytes.bytes).toBe(Buffer.byteLength(JSON.stringify(bytes.rows)));
  });

  it('cuts off a row far larger than the byte limit before it reaches this process', async () => {
    // Building a 100 MB value takes PostgreSQL well over the suite's 1 s timeout on a loaded machine (a
    // CI run cancelled it): this test is about the byte limit, so its academy gives the query room.
    const roomy = await engine!.open({ sqlTimeoutMs: 30_000 }, academy.place);
    const rss = process.memoryUsage().rss;
    const huge = await roomy.client.query({
      sql: "SELECT 1 AS n, '' AS relleno UNION ALL SELECT 2, repeat('x', 100000000)",
    });
    expect(huge).toMatchObject({ rows: [[1, '']], truncated: true, truncated_by: 'bytes' });
    // Held whole, the 100 MB value would have grown this process by far more than this.
    expect(process.memoryUsage().rss - rss).toBeLessThan(60 * 1024 * 1024);
    expect((await roomy.client.query({ sql: 'SELECT 1 AS uno' })).rows).toEqual([[1]]);
  });

  it('answers 9000 nested parentheses cleanly, with no internals', async () => {
    const sql = `SELECT ${'('.repeat(9000)}1${')'.repeat(9000)} AS x`;
    const outcome = await academy.client.query({ sql }).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    expect(outcome).not.toMatch(/call stack|RangeError|at .*\.js/);
  });

  it('a query the role may not run is refused by PostgreSQL itself, in the refusal layer', async () => {
    const error = await refusal(academy.client.query({ sql: 'SELECT rolpassword FROM pg_authid' }));
    expect(error.status).toBe(422);
    expect((error.details as { refused?: string }).refused).toBe('refused');
    expect(error.message).toContain('PostgreSQL lo impide: permission denied');
  });

  it('the caller aborting a query ends it at once (its connection destroyed), and the next query runs', async () => {
    const runner = await PgReadOnlySql.open({
      url: (await analyticsUrlOf(academy))!,
      rowLimit: 10,
      byteLimit: SQL_BYTE_LIMIT,
      timeoutMs: 30_000,
    });
    try {
      const abort = new AbortController();
      setTimeout(() => abort.abort(new Error('cancelled by the client')), 100);
      const job = { sql: 'SELECT count(*) FROM generate_series(1, 1e12)', params: [], limit: 10 };
      await expect(runner.query(job, abort.signal)).rejects.toThrow('cancelled by the client');
      expect(await runner.query({ sql: 'SELECT 1 AS uno', params: [], limit: 10 })).toMatchObject({
        ok: true,
        columns: ['uno'],
        rows: [[1]],
      });
    } finally {
      await runner.close();
    }
  });

  it("one session runs one query at a time and may queue only a few; another session's query runs meanwhile", async () => {
    const slow = 'SELECT count(*) FROM generate_series(1, 1e12)';
    let settled = 0;
    const flood = Array.from({ length: 4 }, () =>
      academy.client
        .query({ sql: slow, session: 'a' })
        .catch((e: SystemError) => e)
        .finally(() => {
          settled++;
        }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const busy = await refusal(academy.client.query({ sql: 'SELECT 1', session: 'a' }));
    expect(busy.message).toContain('Esta sesión ya tiene 4 consultas');
    expect((await academy.client.query({ sql: 'SELECT 1 AS uno', session: 'b' })).rows).toEqual([[1]]);
    // Session a runs one at a time: most of its flood still waits.
    expect(settled).toBeLessThan(4);
    const outcomes = await Promise.all(flood);
    expect(outcomes.every((o) => o instanceof Error && /superó el límite/.test(o.message))).toBe(true);
    expect((await academy.client.query({ sql: 'SELECT 1 AS uno', session: 'a' })).rows).toEqual([[1]]);
  });

  it('lists the tables from information_schema, without the private ones', async () => {
    const { tables } = await academy.client.listTables();
    expect(tables.map((t) => t.name)).toEqual([
      'avances',
      'cursos',
      'estudiantes',
      'intentos',
      'lecciones',
      'matriculas',
      'preguntas',
      'quizzes',
    ]);
    const intentos = tables.find((t) => t.name === 'intentos')!;
    expect(intentos.columns.find((c) => c.name === 'id')).toMatchObject({
      primary_key: true,
      nullable: false,
    });
    expect(intentos.foreign_keys).toEqual(
      expect.arrayContaining([{ column: 'quiz_id', references: 'quizzes.id' }]),
    );
  });
});

describe.skipIf(!engine)('each wall stands on its own', () => {
  it('the parser alone refuses every PostgreSQL attempt', async () => {
    for (const [name, sql] of PG_ATTEMPTS) {
      await expect(screenPgQuery(sql), name).rejects.toThrow(SqlRefusal);
    }
    for (const [name, sql] of PG_LEGIT) await expect(screenPgQuery(sql), name).resolves.toBeUndefined();
  });

  it('the SELECT-only role alone (no parser, no READ ONLY) can write nothing', async () => {
    const role = new URL((await analyticsUrlOf(academy))!).username;
    const client = new pg.Client({ connectionString: db.urlAs(role) });
    await client.connect();
    const before = await pgChecksum(db);
    try {
      await client.query('SET default_transaction_read_only = off');
      await client.query('SET search_path = academy');
      for (const sql of [
        "INSERT INTO avances VALUES ('ana-garcia', 'mcp-02-ciclo-de-vida', 'x')",
        "UPDATE estudiantes SET nombre = 'x'",
        'DELETE FROM avances',
        'TRUNCATE avances',
        'SELECT * FROM preguntas_privadas',
        'CREATE TABLE academy.x (a int)',
        'CREATE TABLE public.x (a int)',
        'CREATE TEMP TABLE x (a int)',
        "SELECT lo_from_bytea(0, 'x'::bytea)",
        'SELECT lo_create(0)',
        "SELECT lo_import('/etc/passwd')",
        "SELECT nextval('intentos_id_seq')",
        'CREATE SCHEMA otra',
      ]) {
        await expect(client.query(sql), sql).rejects.toThrow(/permission denied|must be/);
      }
    } finally {
      await client.end();
    }
    expect(await pgChecksum(db)).toBe(before);
  });
});

/** The analytics URL the test engine opened the academy with (the harness's role). */
async function analyticsUrlOf(_academy: OpenedAcademy): Promise<string | undefined> {
  const [row] = await db.query<{ rolname: string }>(
    "SELECT rolname FROM pg_roles WHERE rolname LIKE 'academy\\_ro\\_%' AND has_schema_privilege(oid, 'academy', 'USAGE') ORDER BY oid DESC LIMIT 1",
  );
  return row ? db.urlAs(row.rolname) : undefined;
}

describe.skipIf(!engine)('the checksum these tests trust', () => {
  it('changes with a row, a sequence, a large object and a temporary table', async () => {
    let last = await pgChecksum(db);
    for (const change of [
      "UPDATE academy.estudiantes SET nombre = nombre || '.' WHERE id = 'ana-garcia'",
      "SELECT nextval('academy.intentos_id_seq')",
      'SELECT lo_create(0)',
      "SELECT lo_put((SELECT max(oid) FROM pg_largeobject_metadata), 0, 'x'::bytea)",
      'CREATE TEMP TABLE huella (a int)',
    ]) {
      await db.query(change);
      const now = await pgChecksum(db);
      expect(now, change).not.toBe(last);
      last = now;
    }
  });
});
