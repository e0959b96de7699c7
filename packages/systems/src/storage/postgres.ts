import { withoutPassword } from '@code-cluster/shared';
import type { Pool, PoolClient, PoolConfig, QueryConfig, QueryResultRow } from 'pg';
import { Refusal, refuse } from '../refusal.js';

/**
 * The one PostgreSQL seam of the systems (issue 12): a small pool per system on the URL of its
 * `<SYSTEM>_DATABASE_URL`, every table in the system's own schema, migrations recorded in that schema and
 * run under an advisory lock so that replicas starting together migrate once. A store module writes its SQL
 * on top of this, as it does on SQLite on top of sqlite.ts.
 *
 * An engine that goes away answers the domain's "not available" (503) within `queryTimeoutMs`, never a
 * hang; the pool drops broken connections and the next call reconnects, so the system recovers by itself.
 */
export interface PgQueries {
  /** Rows of one statement, run with the extended protocol (`$1` parameters, one statement only). */
  rows<T extends QueryResultRow = QueryResultRow>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  row<T extends QueryResultRow = QueryResultRow>(
    sql: string,
    params?: readonly unknown[],
  ): Promise<T | undefined>;
  /** How many rows a statement changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Several statements the build itself wrote (a migration), with the simple protocol; no parameters. */
  script(sql: string): Promise<void>;
}

export interface PgDatabase extends PgQueries {
  /** The schema every table of the system lives in (its `search_path`). */
  readonly schema: string;
  /** The URL without its password, for the operator's log. */
  readonly where: string;
  /** Runs `work` in one transaction on one connection: all of it commits or none. */
  transaction<T>(work: (tx: PgQueries) => Promise<T>): Promise<T>;
  /** A connection of the pool for work the seam does not cover (a cursor); give it back with `release`. */
  connect(): Promise<PoolClient>;
  close(): Promise<void>;
}

export interface PgOpenOptions {
  url: string;
  /** The system, for messages ("el sistema groundstation no está disponible"); also its schema by default. */
  system: string;
  schema?: string;
  /** Schema migrations in order; `<schema>.schema_version` records how many have run. */
  migrations?: readonly string[];
  /** Connections per process (default 4: two replicas of six servers stay far below max_connections). */
  poolSize?: number;
  /** Longest a query may take, and a connection to open, before the call is answered "not available", ms. */
  queryTimeoutMs?: number;
  connectTimeoutMs?: number;
  onError?: (error: unknown) => void;
}

const INT8_OID = 20;
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** A SQL identifier the seam writes into statements itself; only plain lower-case names are accepted. */
export function sqlIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** SQLSTATE classes and socket errors that say the engine, not the statement, failed. */
function unreachable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // 08: connection exception; 57P01-03: shut down or starting; 53300: too many connections.
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code))
      return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|not queryable/i.test(
      message,
    )
  );
}

/** The statement was cancelled by `statement_timeout` (57014): the engine is there but too slow. */
function timedOut(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '57014';
}

/** Opens the pool, checks the engine answers and runs the system's migrations. Rejects with the reason. */
export async function openPostgres(options: PgOpenOptions): Promise<PgDatabase> {
  const { default: pg } = await import('pg');
  const schema = options.schema ?? options.system;
  const quoted = sqlIdentifier(schema);
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.poolSize ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000,
    // Client side (a silent network) and server side (a slow statement): either ends the call in time.
    query_timeout: queryTimeoutMs + 1_000,
    statement_timeout: queryTimeoutMs,
    idle_in_transaction_session_timeout: queryTimeoutMs * 2,
    idleTimeoutMillis: 30_000,
    application_name: `code-cluster-${options.system}`,
    options: `-c search_path=${schema}`,
    // int8 (counts, Unix ms) as numbers, not strings: every value the stores keep fits in 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as never)) as never,
    },
  };
  const pool: Pool = new pg.Pool(config);
  // A connection that breaks while idle must not crash the process; the next checkout opens a new one.
  pool.on('error', (error) => options.onError?.(error));
  const where = withoutPassword(options.url);

  const unavailable = (error: unknown) =>
    refuse.unavailable(
      `El sistema ${options.system} no está disponible: su base de datos PostgreSQL no responde ` +
        `(${error instanceof Error ? error.message : String(error)}). Vuelve a intentarlo en unos segundos.`,
    );
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Refusal) throw error;
      if (unreachable(error)) throw unavailable(error);
      if (timedOut(error))
        throw refuse.unavailable(
          `El sistema ${options.system} no respondió a tiempo (más de ${queryTimeoutMs} ms en la base de ` +
            'datos). Vuelve a intentarlo en unos segundos.',
        );
      throw error;
    }
  };
  // The extended protocol always, even without parameters: it runs one statement and no more.
  const query = (runner: Pick<Pool, 'query'>, sql: string, params: readonly unknown[]) =>
    guard(() =>
      runner.query<QueryResultRow>({ text: sql, values: [...params], queryMode: 'extended' } as QueryConfig),
    );
  const on = (runner: Pick<Pool, 'query'>): PgQueries => ({
    rows: async (sql, params = []) => (await query(runner, sql, params)).rows as never,
    row: async (sql, params = []) => (await query(runner, sql, params)).rows[0] as never,
    run: async (sql, params = []) => (await query(runner, sql, params)).rowCount ?? 0,
    script: async (sql) => {
      await guard(() => runner.query(sql));
    },
  });

  const transaction = async <T>(work: (tx: PgQueries) => Promise<T>): Promise<T> => {
    const client = await guard(() => pool.connect());
    let broken = false;
    try {
      await guard(() => client.query('BEGIN'));
      const result = await work(on(client));
      await guard(() => client.query('COMMIT'));
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // The connection is gone: the server rolled the transaction back on its own.
        broken = true;
      }
      throw error;
    } finally {
      client.release(broken);
    }
  };

  const database: PgDatabase = {
    schema,
    where,
    ...on(pool),
    transaction,
    connect: () => guard(() => pool.connect()),
    close: () => pool.end(),
  };
  try {
    await migrate(database, quoted, options.migrations ?? []);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error instanceof Refusal ? new Error(error.message) : error;
  }
  return database;
}

/**
 * Creates the schema and runs the migrations it has not run yet, in one transaction holding an advisory
 * lock on the schema's name: a second replica starting at the same moment waits, then finds them done.
 */
async function migrate(db: PgDatabase, quoted: string, migrations: readonly string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('SELECT pg_advisory_xact_lock(hashtext($1))', [`code-cluster:migrate:${db.schema}`]);
    await tx.run(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await tx.run(`CREATE TABLE IF NOT EXISTS ${quoted}.schema_version (version integer NOT NULL)`);
    const current = (await tx.row<{ version: number }>(`SELECT version FROM ${quoted}.schema_version`))
      ?.version;
    if (current === undefined) await tx.run(`INSERT INTO ${quoted}.schema_version VALUES (0)`);
    const from = current ?? 0;
    if (from > migrations.length) {
      throw new Error(
        `schema ${db.schema} has version ${from}, newer than this build knows (${migrations.length})`,
      );
    }
    for (let version = from; version < migrations.length; version++) {
      await tx.run(`SET LOCAL search_path TO ${quoted}`);
      await tx.script(migrations[version]!);
      await tx.run(`UPDATE ${quoted}.schema_version SET version = $1`, [version + 1]);
    }
  });
}
