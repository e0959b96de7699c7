import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { AcademyClient, SQL_MAX_CHARS } from '@code-cluster/shared/academy';
import { rejectionOf } from '@code-cluster/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSingleSelect, SqlRefusal } from './sql-guard.js';
import { ReadOnlySqlRunner } from './sql-runner.js';
import { type AcademySystem, createAcademySystem } from './system.js';

/**
 * Write and escape attempts against consulta_sql. Each must be refused with a Spanish message and leave
 * the database file byte-for-byte unchanged, and the walls are checked one by one too: the parser alone,
 * and the read-only child alone (no parser in front), must each stop every write.
 */
const WRITES: ReadonlyArray<[string, string]> = [
  [
    'insert',
    "INSERT INTO cursos (id, titulo, descripcion, nivel, horas) VALUES ('x', 'x', 'x', 'inicial', 1)",
  ],
  ['insert select', 'INSERT INTO estudiantes SELECT * FROM estudiantes'],
  ['replace', "REPLACE INTO cursos (id) VALUES ('mcp')"],
  ['insert or replace', "INSERT OR REPLACE INTO avances VALUES ('ana-garcia', 'mcp-01-nxm', 'x')"],
  ['update', "UPDATE estudiantes SET nombre = 'pwned'"],
  ['update from', "UPDATE intentos SET aprobado = 1 WHERE quiz_id = 'quiz-mcp-01'"],
  ['delete', 'DELETE FROM avances'],
  ['delete where', "DELETE FROM estudiantes WHERE id = 'ana-garcia'"],
  ['drop table', 'DROP TABLE estudiantes'],
  ['drop index', 'DROP INDEX intentos_por_estudiante'],
  ['alter', 'ALTER TABLE cursos ADD COLUMN x TEXT'],
  ['alter rename', 'ALTER TABLE cursos RENAME TO viejos'],
  ['create table', 'CREATE TABLE x (a)'],
  ['create table as', 'CREATE TABLE copia AS SELECT * FROM estudiantes'],
  ['create index', 'CREATE INDEX x ON cursos (titulo)'],
  ['create view', 'CREATE VIEW v AS SELECT 1'],
  ['create trigger', 'CREATE TRIGGER t AFTER INSERT ON cursos BEGIN DELETE FROM avances; END'],
  ['create temp table', 'CREATE TEMP TABLE x (a)'],
  ['attach', "ATTACH DATABASE '/tmp/academy-attack.db' AS x"],
  ['detach', 'DETACH DATABASE main'],
  ['vacuum', 'VACUUM'],
  ['vacuum into', "VACUUM INTO '/tmp/academy-copy.db'"],
  ['reindex', 'REINDEX'],
  ['analyze', 'ANALYZE'],
  ['pragma write', 'PRAGMA user_version = 99'],
  ['pragma journal', 'PRAGMA journal_mode = DELETE'],
  ['pragma query_only off', 'PRAGMA query_only = OFF'],
  ['pragma query_only off (bare)', 'PRAGMA query_only=0'],
  ['begin', 'BEGIN IMMEDIATE'],
  ['savepoint', 'SAVEPOINT s'],
  ['with delete', 'WITH x AS (SELECT 1) DELETE FROM avances'],
  ['with insert', "WITH x AS (SELECT 'a') INSERT INTO cursos (id) SELECT * FROM x"],
  ['with update', "WITH x AS (SELECT 1) UPDATE estudiantes SET nombre = 'x'"],
  ['cte that deletes', 'WITH d AS (DELETE FROM avances RETURNING *) SELECT * FROM d'],
  ['stacked', 'SELECT 1; DROP TABLE estudiantes'],
  ['stacked no space', 'SELECT 1;DELETE FROM avances'],
  ['stacked after comment', 'SELECT 1 -- nada\n; DELETE FROM avances'],
  ['block comment prefix', '/* solo lectura */ DELETE FROM avances'],
  ['line comment prefix', '-- SELECT\nDELETE FROM avances'],
  ['comment inside keyword gap', 'DELETE/**/FROM avances'],
  ['semicolon in string then write', "SELECT ';' AS s; DELETE FROM avances"],
  ['quoted identifier trick', 'DELETE FROM "avances"'],
  ['bracket identifier', 'DROP TABLE [avances]'],
  ['unicode lookalike select', 'ＳＥＬＥＣＴ 1; DELETE FROM avances'],
  ['cyrillic lookalike', 'SЕLЕCT * FROM cursos'],
  ['load_extension', "SELECT load_extension('/tmp/evil.so')"],
  ['writefile', "SELECT writefile('/tmp/academy-pwn.txt', 'x')"],
  ['readfile', "SELECT readfile('/etc/passwd')"],
  ['fts3_tokenizer', "SELECT fts3_tokenizer('simple')"],
  ['randomblob runaway', 'SELECT randomblob(1e10)'],
  ['zeroblob runaway', 'SELECT length(zeroblob(2000000000))'],
  ['nested function call', "SELECT upper(load_extension('x'))"],
  ['function in where', "SELECT * FROM cursos WHERE writefile('/tmp/x', titulo) > 0"],
  ['explain', 'EXPLAIN DELETE FROM avances'],
  ['empty', '   '],
  ['only comment', '-- nada'],
  ['nul byte', 'SELECT 1\0; DELETE FROM avances'],
  ['too long', `SELECT ${'1 + '.repeat(SQL_MAX_CHARS / 4)}1`],
];

/** Attempts that are reads to the parser: only the time limit stops them. */
const RUNAWAY = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r';

const LEGIT: ReadonlyArray<[string, string, unknown[]]> = [
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
  // node-sql-parser's sqlite grammar wants PARTITION BY in a window (a known gap: it rejects some valid SQL).
  [
    'window',
    'SELECT estudiante_id, rank() OVER (PARTITION BY quiz_id ORDER BY aciertos DESC) AS puesto FROM intentos',
    [],
  ],
  [
    'json and dates',
    "SELECT json_extract(respuestas_json, '$.p1') AS p1, strftime('%Y-%m', enviado_en) AS mes FROM intentos",
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
];

let dir: string;
let system: AcademySystem;
let client: AcademyClient;
let file: string;
const hash = () => createHash('sha256').update(readFileSync(file)).digest('hex');
const sideFiles = () => readdirSync(dir).sort();

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
    expect(error.details).toMatchObject({ refused: 'parser' });
    expect(error.message).toMatch(/consulta|sentencia|función|SELECT/i);
    expect(error.message).not.toMatch(/^(syntax|SQLITE|attempt)/i);
    expect(hash()).toBe(before);
    expect(sideFiles()).toEqual(files);
    expect(existsSync('/tmp/academy-copy.db') || existsSync('/tmp/academy-pwn.txt')).toBe(false);
  });

  it('kills a runaway recursive CTE at the deadline, then answers the next query from a fresh child', async () => {
    const before = hash();
    const started = performance.now();
    const error = await refusal(client.query({ sql: RUNAWAY }));
    expect(error.message).toMatch(/superó el límite de 1 s y se canceló/);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(hash()).toBe(before);
    const next = await client.query({ sql: 'SELECT count(*) AS n FROM estudiantes' });
    expect(next.rows).toEqual([[20]]);
  });
});

describe('consulta_sql answers legitimate reads', () => {
  it.each(LEGIT)('runs %s', async (_name, sql, params) => {
    const before = hash();
    const result = await client.query({ sql, params: params as string[] });
    expect(result.row_count).toBeGreaterThan(0);
    expect(result.columns.length).toBeGreaterThan(0);
    expect(hash()).toBe(before);
  });

  it('binds ? parameters from params, never from the text', async () => {
    const result = await client.query({
      sql: 'SELECT id FROM estudiantes WHERE id = ?',
      params: ["ana-garcia' OR '1'='1"],
    });
    expect(result.rows).toEqual([]);
  });

  it('stops at the row limit and says so', async () => {
    const limited = createAcademySystem({ file, sqlRowLimit: 5 });
    try {
      const small = new AcademyClient(inProcessTransport(() => limited.handler));
      const result = await small.query({ sql: 'SELECT * FROM avances' });
      expect(result).toMatchObject({ row_count: 5, truncated: true, row_limit: 5 });
    } finally {
      limited.close();
    }
  });
});

describe('each wall stands on its own', () => {
  it.each(WRITES)('the parser alone refuses %s', async (_name, sql) => {
    await expect(assertSingleSelect(sql)).rejects.toThrow(SqlRefusal);
  });

  it('the parser lets legitimate reads through', async () => {
    for (const [, sql] of LEGIT) await expect(assertSingleSelect(sql)).resolves.toBeUndefined();
  });

  // Every attempt that writes (or fails in SQLite anyway): without the parser, the read-only child must stop
  // each one. Left out: inputs SQLite reads as nothing or as a harmless read, which only the parser refuses
  // (SQLite stops at a NUL byte and runs only `SELECT 1`; fts3_tokenizer's one-argument form returns a pointer; its writing form is off in SQLite's defaults).
  // node:sqlite (Node 22.5+) cannot say whether a statement writes (no `readonly`), so the child alone lets
  // `EXPLAIN DELETE …` through there: harmless — EXPLAIN never runs the statement, the connection is
  // read-only, and the parser refuses it first on the real path.
  const nodeSqlite = process.getBuiltinModule?.('node:sqlite') !== undefined;
  const ENGINE_LEVEL = WRITES.filter(
    ([name]) =>
      !['empty', 'only comment', 'too long', 'fts3_tokenizer', 'nul byte'].includes(name) &&
      !(nodeSqlite && name === 'explain'),
  );
  it('the read-only child alone (no parser) refuses every write and leaves the file unchanged', async () => {
    const runner = new ReadOnlySqlRunner({ file, rowLimit: 10, timeoutMs: 1_000 });
    try {
      const before = hash();
      const files = sideFiles();
      for (const [name, sql] of ENGINE_LEVEL) {
        const run = await runner.run(sql, []);
        expect(run.ok, name).toBe(false);
      }
      expect(hash()).toBe(before);
      expect(sideFiles()).toEqual(files);
      expect(existsSync('/tmp/academy-copy.db')).toBe(false);
      // And the engine refuses a write even if a writer statement were ever judged a reader.
      const stillReads = await runner.run('SELECT count(*) FROM cursos', []);
      expect(stillReads).toMatchObject({ ok: true, rows: [[4]] });
    } finally {
      runner.close();
    }
  });

  it('the caller aborting a query kills it at once (cancellation reaches the child)', async () => {
    const runner = new ReadOnlySqlRunner({ file, rowLimit: 10, timeoutMs: 30_000 });
    try {
      const abort = new AbortController();
      setTimeout(() => abort.abort(new Error('cancelled by the client')), 200);
      const started = performance.now();
      await expect(runner.run(RUNAWAY, [], abort.signal)).rejects.toThrow('cancelled by the client');
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(await runner.run('SELECT 1 AS uno', [])).toMatchObject({
        ok: true,
        columns: ['uno'],
        rows: [[1]],
      });
    } finally {
      runner.close();
    }
  });
});
