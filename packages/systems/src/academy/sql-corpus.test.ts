import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { AcademyClient, SQL_BYTE_LIMIT } from '@code-cluster/shared/academy';
import { rejectionOf } from '@code-cluster/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITES } from '../../test/academy-sql-corpus.js';
import { SqlRefusal, screenQuery } from './sql-guard.js';
import { ReadOnlySqlRunner, type SqlJob } from './sql-runner.js';
import { type AcademySystem, createAcademySystem } from './system.js';

/**
 * Write and escape attempts against consulta_sql (test/academy-sql-corpus.ts, shared with the PostgreSQL
 * corpus). Each must be refused with a Spanish message and leave the database file byte-for-byte
 * unchanged, and the walls are checked one by one too: the token screen alone, and the read-only child
 * alone (no screen in front), must each stop what they are meant to stop.
 */
/** A read to every wall but the time limit: only the deadline stops it. */
const RUNAWAY = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r';

/**
 * Valid read-only SQLite analytics, each answered with rows: among them every construct a parser of
 * another dialect refused (windows without PARTITION BY, OVER (), frames, named windows, INTERSECT,
 * EXCEPT, FILTER, NULLS LAST, VALUES, [brackets], LIKE … ESCAPE, ?1, an accented alias).
 */
const LEGIT: ReadonlyArray<[string, string, Array<string | number | boolean | null>]> = [
  [
    'join',
    'SELECT e.nombre, c.titulo FROM matriculas m JOIN estudiantes e ON e.id = m.estudiante_id JOIN cursos c ON c.id = m.curso_id ORDER BY e.nombre LIMIT 5',
    [],
  ],
  [
    'aggregate',
    'SELECT curso_id, count(*) AS n FROM matriculas GROUP BY curso_id HAVING n > 1 ORDER BY n DESC',
    [],
  ],
  [
    'cte that reads',
    'WITH hechas AS (SELECT estudiante_id, count(*) AS n FROM avances GROUP BY estudiante_id) SELECT e.id, coalesce(h.n, 0) AS n FROM estudiantes e LEFT JOIN hechas h ON h.estudiante_id = e.id',
    [],
  ],
  ['parameters', 'SELECT id, nombre FROM estudiantes WHERE pais = ? AND cohorte = ?', ['MX', '2026-A']],
  [
    'window with partition',
    'SELECT estudiante_id, rank() OVER (PARTITION BY quiz_id ORDER BY aciertos DESC) AS puesto FROM intentos',
    [],
  ],
  ['rank without partition', 'SELECT id, rank() OVER (ORDER BY horas DESC) AS puesto FROM cursos', []],
  ['over ()', 'SELECT id, count(*) OVER () AS total FROM estudiantes', []],
  [
    'rows between frame',
    'SELECT id, sum(aciertos) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS movil FROM intentos',
    [],
  ],
  [
    'range frame',
    'SELECT id, avg(horas) OVER (ORDER BY horas RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS media FROM cursos',
    [],
  ],
  [
    'named window',
    'SELECT id, row_number() OVER w AS n, lag(id) OVER w AS anterior FROM estudiantes WINDOW w AS (ORDER BY alta_en)',
    [],
  ],
  [
    'window functions',
    'SELECT id, dense_rank() OVER (ORDER BY pais) AS d, ntile(4) OVER (ORDER BY id) AS cuartil, percent_rank() OVER (ORDER BY id) AS p, cume_dist() OVER (ORDER BY id) AS c, first_value(id) OVER (ORDER BY id) AS f, last_value(id) OVER (ORDER BY id) AS l, nth_value(id, 2) OVER (ORDER BY id) AS s, lead(id) OVER (ORDER BY id) AS siguiente FROM estudiantes',
    [],
  ],
  [
    'intersect',
    "SELECT estudiante_id FROM matriculas WHERE curso_id = 'mcp' INTERSECT SELECT estudiante_id FROM matriculas WHERE curso_id = 'orbitas'",
    [],
  ],
  [
    'except',
    "SELECT id FROM estudiantes EXCEPT SELECT estudiante_id FROM matriculas WHERE curso_id = 'orbitas'",
    [],
  ],
  ['union all', 'SELECT id FROM cursos UNION ALL SELECT id FROM lecciones', []],
  [
    'filter (where …)',
    'SELECT quiz_id, count(*) FILTER (WHERE aprobado = 1) AS aprobados, count(*) AS total FROM intentos GROUP BY quiz_id',
    [],
  ],
  [
    'nulls last',
    'SELECT l.id, q.id AS quiz FROM lecciones l LEFT JOIN quizzes q ON q.leccion_id = l.id ORDER BY q.id NULLS LAST, l.id',
    [],
  ],
  [
    'nulls first',
    'SELECT l.id, q.id AS quiz FROM lecciones l LEFT JOIN quizzes q ON q.leccion_id = l.id ORDER BY q.id DESC NULLS FIRST',
    [],
  ],
  ['values', "VALUES (1, 'uno'), (2, 'dos')", []],
  [
    'values in a cte',
    "WITH paises(codigo, nombre) AS (VALUES ('MX', 'México'), ('ES', 'España')) SELECT p.nombre, count(*) AS n FROM estudiantes e JOIN paises p ON p.codigo = e.pais GROUP BY p.nombre",
    [],
  ],
  ['bracket identifiers', 'SELECT [id], [titulo] FROM [cursos] WHERE [horas] > 5', []],
  ['backquoted and double-quoted identifiers', 'SELECT `id`, "titulo" FROM "cursos"', []],
  ['like … escape', "SELECT id FROM lecciones WHERE id LIKE 'mcp!-%' ESCAPE '!'", []],
  [
    '?1 parameters',
    'SELECT id FROM estudiantes WHERE pais = ?1 OR cohorte = ?2 OR pais = ?1',
    ['MX', '2026-B'],
  ],
  ['accented alias', 'SELECT pais AS país, count(*) AS número FROM estudiantes GROUP BY pais', []],
  ['boolean parameter', 'SELECT count(*) AS n FROM intentos WHERE aprobado = ?', [true]],
  [
    'json and dates',
    "SELECT json_extract(opciones_json, '$.a') AS a, strftime('%Y-%m', '2026-05-01') AS mes FROM preguntas",
    [],
  ],
  [
    'json_each',
    "SELECT p.clave, o.key, o.value FROM preguntas p, json_each(p.opciones_json) o WHERE p.quiz_id = 'quiz-mcp-01'",
    [],
  ],
  [
    'json arrow operators',
    "SELECT opciones_json ->> '$.a' AS a, opciones_json -> '$.b' AS b FROM preguntas",
    [],
  ],
  [
    'bounded recursive cte',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT sum(n) AS total FROM r',
    [],
  ],
  [
    'semicolon inside a string',
    "SELECT 'a;b' AS texto, titulo FROM cursos WHERE titulo <> ';DROP TABLE x'",
    [],
  ],
  ['trailing semicolon', 'SELECT count(*) FROM cursos;', []],
  ['comment first', '-- cuántos cursos\nSELECT count(*) FROM cursos', []],
  ['case', "SELECT id, CASE WHEN horas >= 8 THEN 'largo' ELSE 'corto' END AS tipo FROM cursos", []],
  [
    'subquery in select',
    'SELECT c.id, (SELECT count(*) FROM lecciones l WHERE l.curso_id = c.id) AS n FROM cursos c',
    [],
  ],
  [
    'exists',
    'SELECT e.id FROM estudiantes e WHERE EXISTS (SELECT 1 FROM intentos i WHERE i.estudiante_id = e.id)',
    [],
  ],
  [
    'in list and between',
    "SELECT id FROM cursos WHERE nivel IN ('inicial', 'intermedio') AND horas BETWEEN 5 AND 12",
    [],
  ],
  [
    'string functions',
    "SELECT upper(nombre), length(nombre), substr(nombre, 1, 3), replace(nombre, ' ', '_'), instr(nombre, 'a'), trim(' x ') || printf('%05.1f', 3.14159) FROM estudiantes",
    [],
  ],
  [
    'group_concat and string_agg',
    "SELECT curso_id, group_concat(id, ', ') AS ids, string_agg(id, '|') AS otros FROM lecciones GROUP BY curso_id",
    [],
  ],
  [
    'math',
    'SELECT round(avg(horas), 2), max(horas) - min(horas), abs(-3), sqrt(16), pow(2, 10), floor(2.7), ceil(2.1) FROM cursos',
    [],
  ],
  [
    'dates',
    "SELECT date(alta_en), julianday('2026-06-01') - julianday(alta_en) AS dias, unixepoch(alta_en) FROM estudiantes",
    [],
  ],
  [
    'natural join and using',
    'SELECT m.estudiante_id, e.nombre FROM matriculas m JOIN estudiantes e ON e.id = m.estudiante_id JOIN avances a USING (estudiante_id) LIMIT 5',
    [],
  ],
  ['distinct and offset', 'SELECT DISTINCT pais FROM estudiantes ORDER BY pais LIMIT 3 OFFSET 1', []],
  [
    'cast, typeof, iif, nullif',
    "SELECT CAST(horas AS TEXT), typeof(horas), iif(horas > 6, 'sí', 'no'), nullif(nivel, 'inicial') FROM cursos",
    [],
  ],
  ['sqlite_version', 'SELECT sqlite_version() AS v', []],
  [
    'materialized cte',
    'WITH m AS MATERIALIZED (SELECT curso_id, count(*) AS n FROM matriculas GROUP BY curso_id) SELECT * FROM m ORDER BY n DESC',
    [],
  ],
  ['views without answers', 'SELECT * FROM preguntas ORDER BY quiz_id, orden', []],
  ['the schema table', "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view')", []],
  ['unicode text', "SELECT nombre FROM estudiantes WHERE nombre LIKE '%í%'", []],
];

let dir: string;
let system: AcademySystem;
let client: AcademyClient;
let file: string;
const hash = () => createHash('sha256').update(readFileSync(file)).digest('hex');
const sideFiles = () => readdirSync(dir).sort();
/** A job for the child alone: no screen in front (no names, plain ? parameters). */
const job = (sql: string, extra: Partial<SqlJob> = {}): SqlJob => ({
  sql,
  params: [],
  numbered: false,
  names: [],
  limit: 10,
  ...extra,
});

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'academy-sql-'));
  file = join(dir, 'academy.db');
  system = createAcademySystem({ file, sqlTimeoutMs: 1_000 });
  client = new AcademyClient(inProcessTransport(() => system.handler));
});
afterAll(() => {
  system.close();
  rmSync(dir, { recursive: true, force: true });
});

const refusal = (work: Promise<unknown>) => rejectionOf<SystemError>(work);

describe('consulta_sql refuses every write and escape attempt (full pipeline)', () => {
  it(`has a corpus of at least 40 attempts (${WRITES.length + 1})`, () => {
    expect(WRITES.length + 1).toBeGreaterThanOrEqual(40);
  });

  it.each(WRITES)('refuses %s, in Spanish, and the database file is unchanged', async (_name, sql) => {
    const before = hash();
    const files = sideFiles();
    const error = await refusal(client.query({ sql }));
    expect(error.status).toBe(422);
    expect(['guard', 'refused', 'error']).toContain((error.details as { refused?: string }).refused);
    expect(error.message).toMatch(/consulta|sentencia|función|SELECT/i);
    expect(error.message).not.toMatch(/^(syntax|SQLITE|attempt)/i);
    expect(hash()).toBe(before);
    expect(sideFiles()).toEqual(files);
    expect(existsSync('/tmp/academy-copy.db') || existsSync('/tmp/academy-pwn.txt')).toBe(false);
  });

  it('kills a runaway recursive CTE at the deadline, then answers the next query from a fresh child', async () => {
    const before = hash();
    const error = await refusal(client.query({ sql: RUNAWAY }));
    expect(error.message).toMatch(/superó el límite de 1 s y se canceló/);
    expect(hash()).toBe(before);
    const next = await client.query({ sql: 'SELECT count(*) AS n FROM estudiantes' });
    expect(next.rows).toEqual([[20]]);
  });
});

describe('consulta_sql answers valid read-only SQLite', () => {
  it(`has a corpus of at least 40 analytics queries (${LEGIT.length})`, () => {
    expect(LEGIT.length).toBeGreaterThanOrEqual(40);
  });

  it.each(LEGIT)('runs %s', async (_name, sql, params) => {
    const before = hash();
    const result = await client.query({ sql, params });
    expect(result.row_count).toBeGreaterThan(0);
    expect(result.columns.length).toBeGreaterThan(0);
    expect(hash()).toBe(before);
  });

  it('binds ? parameters from params, never from the text; booleans as 1 and 0', async () => {
    const injected = await client.query({
      sql: 'SELECT id FROM estudiantes WHERE id = ?',
      params: ["ana-garcia' OR '1'='1"],
    });
    expect(injected.rows).toEqual([]);
    const bools = await client.query({
      sql: 'SELECT ? AS si, ? AS no',
      params: [true, false],
    });
    expect(bools.rows).toEqual([[1, 0]]);
  });

  it('keeps two columns of one name apart', async () => {
    const result = await client.query({ sql: 'SELECT 1 AS a, 2 AS a' });
    expect(result).toMatchObject({ columns: ['a', 'a'], rows: [[1, 2]] });
  });

  it('binds ?NNN parameters by number and refuses mixing them with ?', async () => {
    const result = await client.query({ sql: 'SELECT ?2 AS b, ?1 AS a, ?2 AS b2', params: ['x', 'y'] });
    expect(result.rows).toEqual([['y', 'x', 'y']]);
    const mixed = await refusal(client.query({ sql: 'SELECT ?1, ?', params: [1, 2] }));
    expect(mixed.message).toContain('mezcla parámetros ? y ?N');
  });

  it('stops at the row limit and says so', async () => {
    const limited = createAcademySystem({ file, sqlRowLimit: 5 });
    try {
      const small = new AcademyClient(inProcessTransport(() => limited.handler));
      const result = await small.query({ sql: 'SELECT * FROM avances' });
      expect(result).toMatchObject({ row_count: 5, truncated: true, truncated_by: 'rows', row_limit: 5 });
    } finally {
      limited.close();
    }
  });

  it('stops at the byte limit and says so: 500 rows of 200 KB stay within 1 MB', async () => {
    const result = await client.query({
      sql: "SELECT printf('%.*c', 200000, 'x') AS relleno FROM avances, cursos LIMIT 500",
    });
    expect(result).toMatchObject({ truncated: true, truncated_by: 'bytes', byte_limit: SQL_BYTE_LIMIT });
    expect(result.row_count).toBeGreaterThan(0);
    expect(result.row_count).toBeLessThan(10);
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(SQL_BYTE_LIMIT);
    expect(result.bytes).toBe(Buffer.byteLength(JSON.stringify(result.rows)));
  });

  it.each([4990, 9000])('answers %i nested parentheses cleanly, with no internals', async (depth) => {
    const sql = `SELECT ${'('.repeat(depth)}1${')'.repeat(depth)} AS x`;
    const outcome = await client.query({ sql }).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    expect(outcome).not.toMatch(/call stack|RangeError|at .*\.js/);
  });
});

describe('consulta_sql reads only the analytics surface', () => {
  it('refuses the walk-around that fooled a parser of another dialect (backslash, #)', async () => {
    const walk = "SELECT 'a\\' AS p, randomblob(1000) AS q, sqlite_version() AS v, '#'\n AS r";
    const error = await refusal(client.query({ sql: walk }));
    expect(error.message).toContain("la función 'randomblob' no está permitida");
    const harmless = await client.query({ sql: "SELECT 'a\\' AS p, sqlite_version() AS v, '#'\n AS r" });
    expect(harmless.rows[0]![0]).toBe('a\\');
    expect(harmless.rows[0]![2]).toBe('#');
  });

  it.each([
    ['zeroblob', 'SELECT length(zeroblob(999999999))'],
    ['randomblob', 'SELECT hex(randomblob(100000000))'],
    ['load_extension', "SELECT load_extension('/tmp/x.so')"],
    ['unknown function', 'SELECT no_existe(1)'],
  ])('refuses %s before it runs', async (_name, sql) => {
    const error = await refusal(client.query({ sql }));
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/no está permitida|no such function/);
  });

  it.each([
    ['pragma_database_list', 'SELECT file FROM pragma_database_list'],
    ['pragma as a string', "SELECT * FROM 'pragma_database_list'"],
    ['quoted upper case', 'SELECT * FROM "PRAGMA_DATABASE_LIST"'],
    ['dbstat', 'SELECT * FROM dbstat'],
    ['private answers', 'SELECT correcta, explicacion FROM preguntas_privadas'],
    ['private responses', 'SELECT respuestas_json FROM [INTENTOS_PRIVADOS]'],
    ['schema-qualified', 'SELECT * FROM main.intentos_privados'],
  ])('refuses %s, and no reply names the data dir', async (_name, sql) => {
    const error = await refusal(client.query({ sql }));
    expect(error.status).toBe(422);
    expect(JSON.stringify(error)).not.toContain(dir);
  });

  it('the views have no answer columns', async () => {
    for (const sql of [
      'SELECT correcta FROM preguntas',
      'SELECT explicacion FROM preguntas',
      'SELECT respuestas_json FROM intentos',
    ]) {
      const error = await refusal(client.query({ sql }));
      expect(error.message).toContain('no such column');
    }
    const all = await client.query({ sql: 'SELECT * FROM intentos LIMIT 1' });
    expect(all.columns).not.toContain('respuestas_json');
  });

  it('schema lists the views and not the private tables', async () => {
    const { tables } = await client.listTables();
    const names = tables.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['preguntas', 'intentos', 'cursos']));
    expect(names.some((n) => n.endsWith('_privadas') || n.endsWith('_privados'))).toBe(false);
    const preguntas = tables.find((t) => t.name === 'preguntas')!;
    expect(preguntas.columns.map((c) => c.name)).toEqual([
      'quiz_id',
      'clave',
      'orden',
      'enunciado',
      'opciones_json',
    ]);
    const intentos = await client.getTable('intentos');
    expect(intentos.columns.map((c) => c.name)).not.toContain('respuestas_json');
    // Described by the base table: nullability, keys and foreign keys, not a view's all-nullable shape.
    expect(intentos.columns.find((c) => c.name === 'aciertos')).toMatchObject({
      type: 'INTEGER',
      nullable: false,
    });
    expect(intentos.columns.find((c) => c.name === 'id')).toMatchObject({
      primary_key: true,
      nullable: false,
    });
    expect(intentos.foreign_keys).toEqual(
      expect.arrayContaining([{ column: 'quiz_id', references: 'quizzes.id' }]),
    );
    await expect(client.getTable('intentos_privados')).rejects.toMatchObject({ status: 404 });
  });
});

describe('each wall stands on its own', () => {
  // What only the screen can tell: the text before the engine sees it.
  const SCREEN_LEVEL = WRITES.filter(
    ([name]) =>
      ![
        'load_extension',
        'writefile',
        'readfile',
        'fts3_tokenizer',
        'randomblob runaway',
        'zeroblob runaway',
        'nested function call',
        'function in where',
        'cte that deletes',
        'with delete',
        'with insert',
        'with update',
      ].includes(name),
  );
  it.each(SCREEN_LEVEL)('the token screen alone refuses %s', (_name, sql) => {
    expect(() => screenQuery(sql)).toThrow(SqlRefusal);
  });

  it('the token screen lets every valid query through', () => {
    for (const [, sql] of LEGIT) expect(() => screenQuery(sql), sql).not.toThrow();
  });

  // Every attempt that writes or calls what it may not: without the screen, the read-only child must stop
  // each one. Left out: inputs SQLite reads as nothing or as a harmless read, which only the screen refuses
  // (SQLite stops at a NUL byte and runs only `SELECT 1`).
  const ENGINE_LEVEL = WRITES.filter(
    ([name]) => !['empty', 'only comment', 'too long', 'nul byte'].includes(name),
  );
  it('the read-only child alone (no screen) refuses every write and leaves the file unchanged', async () => {
    const runner = new ReadOnlySqlRunner({ file, rowLimit: 10, byteLimit: SQL_BYTE_LIMIT, timeoutMs: 1_000 });
    try {
      const before = hash();
      const files = sideFiles();
      for (const [name, sql] of ENGINE_LEVEL) {
        const run = await runner.run(job(sql));
        expect(run.ok, name).toBe(false);
      }
      expect(hash()).toBe(before);
      expect(sideFiles()).toEqual(files);
      expect(existsSync('/tmp/academy-copy.db')).toBe(false);
      const stillReads = await runner.run(job('SELECT count(*) FROM cursos'));
      expect(stillReads).toMatchObject({ ok: true, rows: [[4]] });
    } finally {
      runner.close();
    }
  });

  it('the child alone reads no hidden column, however the query reaches it', async () => {
    const runner = new ReadOnlySqlRunner({ file, rowLimit: 10, byteLimit: SQL_BYTE_LIMIT, timeoutMs: 1_000 });
    try {
      for (const sql of [
        'SELECT respuestas_json FROM intentos_privados',
        "SELECT id FROM intentos_privados WHERE respuestas_json LIKE '%b%'",
        'SELECT length(explicacion) FROM preguntas_privadas',
        'SELECT * FROM preguntas_privadas',
        'SELECT count(*) FROM preguntas_privadas GROUP BY correcta',
        'WITH x AS (SELECT * FROM intentos_privados) SELECT max(respuestas_json) FROM x',
      ]) {
        const run = await runner.run(job(sql));
        expect(run, sql).toMatchObject({ ok: false, kind: 'refused' });
        expect((run as { message: string }).message).toContain('columnas ocultas');
      }
      expect(await runner.run(job('SELECT * FROM intentos'))).toMatchObject({ ok: true });
      expect(await runner.run(job('SELECT * FROM preguntas'))).toMatchObject({ ok: true });
      // No virtual table but json_each/json_tree, even with no names from a screen.
      expect(await runner.run(job('SELECT file FROM pragma_database_list'))).toMatchObject({
        ok: false,
        kind: 'refused',
      });
    } finally {
      runner.close();
    }
  });

  it('a query that holds more memory than the bound is stopped, and the next one runs', async () => {
    const runner = new ReadOnlySqlRunner({
      file,
      rowLimit: 10,
      byteLimit: SQL_BYTE_LIMIT,
      timeoutMs: 20_000,
      maxRssBytes: 128 * 1024 * 1024,
    });
    try {
      // A 128 MiB string kept alive while an endless CTE runs: only the memory bound can stop it in time.
      const hog =
        "WITH RECURSIVE big(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM big LIMIT 28), " +
        'b AS MATERIALIZED (SELECT s FROM big ORDER BY length(s) DESC LIMIT 1), ' +
        'r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM b, r';
      const run = await runner.run(job(hog));
      expect(run, JSON.stringify(run)).toMatchObject({ ok: false, kind: 'memory' });
      expect((run as { message: string }).message).toContain('demasiada memoria');
      expect(await runner.run(job('SELECT 1'))).toMatchObject({ ok: true, rows: [[1]] });
    } finally {
      runner.close();
    }
  });

  it('a query cancelled while its child is still starting never runs', async () => {
    const runner = new ReadOnlySqlRunner({
      file,
      rowLimit: 10,
      byteLimit: SQL_BYTE_LIMIT,
      timeoutMs: 30_000,
    });
    try {
      const abort = new AbortController();
      const run = runner.run(job(RUNAWAY), abort.signal);
      abort.abort(new Error('cancelled before the child was ready'));
      await expect(run).rejects.toThrow('cancelled before the child was ready');
      expect(await runner.run(job('SELECT 1 AS uno'))).toMatchObject({ ok: true, rows: [[1]] });
    } finally {
      runner.close();
    }
  });

  it('the caller aborting a query kills it at once (cancellation reaches the child)', async () => {
    const runner = new ReadOnlySqlRunner({
      file,
      rowLimit: 10,
      byteLimit: SQL_BYTE_LIMIT,
      timeoutMs: 30_000,
    });
    try {
      const abort = new AbortController();
      setTimeout(() => abort.abort(new Error('cancelled by the client')), 200);
      await expect(runner.run(job(RUNAWAY), abort.signal)).rejects.toThrow('cancelled by the client');
      expect(await runner.run(job('SELECT 1 AS uno'))).toMatchObject({
        ok: true,
        columns: ['uno'],
        rows: [[1]],
      });
    } finally {
      runner.close();
    }
  });
});

describe('one session cannot starve another', () => {
  it("another session's SELECT 1 is answered while one session's runaway queries wait their turn", async () => {
    const runner = new ReadOnlySqlRunner({
      file,
      rowLimit: 10,
      byteLimit: SQL_BYTE_LIMIT,
      timeoutMs: 1_500,
      poolSize: 2,
      perSession: 4,
    });
    try {
      runner.warm();
      let settled = 0;
      const flood = Array.from({ length: 4 }, () =>
        runner.run(job(RUNAWAY, { session: 'a' })).finally(() => {
          settled++;
        }),
      );
      // Over its share: refused at once instead of queued.
      expect(await runner.run(job('SELECT 1', { session: 'a' }))).toMatchObject({ ok: false, kind: 'busy' });
      const other = await runner.run(job('SELECT 1 AS uno', { session: 'b' }));
      expect(other).toMatchObject({ ok: true, rows: [[1]] });
      // Session a runs one query at a time: most of its flood is still waiting.
      expect(settled).toBeLessThan(4);
      const results = await Promise.all(flood);
      expect(results.every((r) => !r.ok && r.kind === 'timeout')).toBe(true);
    } finally {
      runner.close();
    }
  });
});
