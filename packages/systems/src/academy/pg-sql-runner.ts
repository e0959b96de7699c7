import { withoutPassword } from '@code-cluster/shared';
import type { Pool, PoolClient } from 'pg';
import { refuse } from '../refusal.js';
import type { AnalyticsEngine, AnalyticsRequest } from './analytics.js';
import { ANALYTICS_VARIABLE, analyticsRoleProblems } from './analytics-role.js';
import { screenPgQuery, warmPgParser } from './pg-sql-guard.js';
import { ACADEMY_SCHEMA } from './postgres-store.js';
import { SqlRefusal } from './sql-guard.js';
import type { SqlRun } from './sql-runner.js';

export interface PgSqlRunnerOptions {
  /** `ACADEMY_ANALYTICS_DATABASE_URL`: the SELECT-only role's credentials, never the store's. */
  url: string;
  rowLimit: number;
  byteLimit: number;
  timeoutMs: number;
  /** Connections running queries at once (default 2). */
  poolSize?: number;
  /** Queries one session may have running or waiting (default 4); one of them runs at a time. */
  perSession?: number;
  onError?: (error: unknown) => void;
}

/** A setting that keeps the system from starting: its message names the variable (one stderr line). */
export class AnalyticsSettingError extends Error {
  override readonly name = 'AnalyticsSettingError';
}

const DEFAULT_POOL = 2;
const DEFAULT_PER_SESSION = 4;
/** Rows fetched from the cursor at a time: at first, and at most. */
const FIRST_BATCH = 1;
const BATCH = 100;
/** Bytes a query's rows may bring over the socket, as a multiple of the byte limit plus some slack. */
const RAW_FACTOR = 4;
const RAW_SLACK = 1024 * 1024;

type RawSocket = { on(event: 'data', listener: (chunk: Buffer) => void): void; destroy(): void };

const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  float4: 700,
  float8: 701,
  numeric: 1700,
};

/** A value as PostgreSQL printed it (text format), in the result's types: numbers as numbers where exact. */
function cell(text: string | null, type: number): string | number | null {
  if (text === null) return null;
  switch (type) {
    case OID.int2:
    case OID.int4:
    case OID.int8:
    case OID.oid: {
      const n = Number(text);
      return Number.isSafeInteger(n) ? n : text;
    }
    case OID.float4:
    case OID.float8: {
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case OID.numeric: {
      const n = Number(text);
      const plain = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
      return Number.isFinite(n) && String(n) === plain ? n : text;
    }
    case OID.bool:
      return text === 't' ? 'true' : 'false';
    case OID.bytea:
      return `<blob ${Math.max(0, (text.length - 2) / 2)} bytes>`;
    default:
      return text;
  }
}

const RAW_TYPES = { getTypeParser: () => (value: string) => value };

/**
 * consulta_sql on PostgreSQL: the parser's screen (pg-sql-guard.ts), then the query on a connection of the
 * SELECT-only role, inside `BEGIN READ ONLY` with `SET LOCAL statement_timeout`, through a cursor (the
 * extended protocol: one statement, parameters bound, never spliced) read in batches up to the row and
 * byte caps, then ROLLBACK and the connection destroyed (`release(true)`): no setting, lock or temporary
 * state of one query can outlive it.
 */
export class PgReadOnlySql implements AnalyticsEngine {
  readonly dialect = 'PostgreSQL' as const;
  private readonly sessions = new Map<string, { held: number; tail: Promise<unknown> }>();
  /** Connections this runner cut itself (a row too large): their 'connection terminated' is expected. */
  private readonly cut = new WeakSet<PoolClient>();
  private closed = false;

  private constructor(
    private readonly pool: Pool,
    private readonly Cursor: typeof import('pg-cursor'),
    private readonly options: PgSqlRunnerOptions,
  ) {}

  /**
   * Connects as the analytics role and refuses (AnalyticsSettingError naming the variable) when the role
   * can write anything; warms the parser.
   */
  static async open(options: PgSqlRunnerOptions): Promise<PgReadOnlySql> {
    const [{ default: pg }, { default: Cursor }] = await Promise.all([import('pg'), import('pg-cursor')]);
    const where = `${ANALYTICS_VARIABLE} ${withoutPassword(options.url)}`;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? DEFAULT_POOL,
      connectionTimeoutMillis: 3_000 + options.timeoutMs,
      // A server or network gone silent mid-query: the call ends (503) instead of hanging.
      query_timeout: options.timeoutMs + 2_000,
      application_name: 'code-cluster-academy-analytics',
      options: `-c search_path=${ACADEMY_SCHEMA}`,
      types: RAW_TYPES as never,
    });
    pool.on('error', (error) => options.onError?.(error));
    try {
      // A plain client for the check: the pool's clients hand every value over as raw text.
      const client = new pg.Client({
        connectionString: options.url,
        connectionTimeoutMillis: 3_000,
        application_name: 'code-cluster-academy-analytics',
      });
      await client.connect().catch((error: unknown) => {
        throw new AnalyticsSettingError(`${where}: PostgreSQL unusable (${reason(error)})`);
      });
      try {
        const role = (await client.query<{ role: string }>('SELECT current_user AS role')).rows[0]!.role;
        const problems = await analyticsRoleProblems(
          {
            rows: async (sql, params = []) => (await client.query(sql, [...params])).rows as never,
            row: async (sql, params = []) => (await client.query(sql, [...params])).rows[0] as never,
            run: async (sql, params = []) => (await client.query(sql, [...params])).rowCount ?? 0,
            script: async (sql) => {
              await client.query(sql);
            },
          },
          role,
        );
        if (problems.length > 0) {
          throw new AnalyticsSettingError(
            `${where}: the role ${role} is not SELECT-only (${problems.join('; ')}); consulta_sql needs ` +
              'credentials that can only read: run code-systems migrate academy, or use another role',
          );
        }
      } finally {
        await client.end().catch(() => undefined);
      }
      await warmPgParser();
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof AnalyticsSettingError) throw error;
      throw new AnalyticsSettingError(`${where}: ${reason(error)}`);
    }
    return new PgReadOnlySql(pool, Cursor, options);
  }

  async query(request: AnalyticsRequest, signal?: AbortSignal): Promise<SqlRun> {
    signal?.throwIfAborted();
    if (this.closed) return { ok: false, kind: 'error', message: 'El ejecutor de consultas está cerrado.' };
    try {
      await screenPgQuery(request.sql);
    } catch (error) {
      if (error instanceof SqlRefusal) return { ok: false, kind: 'guard', message: error.message };
      throw error;
    }
    const session = request.session ?? '';
    const turn = this.sessions.get(session) ?? { held: 0, tail: Promise.resolve() };
    const limit = this.options.perSession ?? DEFAULT_PER_SESSION;
    if (turn.held >= limit) {
      return {
        ok: false,
        kind: 'busy',
        message:
          `Esta sesión ya tiene ${turn.held} consultas en curso o en espera (máximo ${limit}; se ejecutan de una ` +
          'en una): espera a que terminen antes de enviar más.',
      };
    }
    // One query at a time per session: a session's runaway queries hold one connection, never the pool.
    turn.held++;
    this.sessions.set(session, turn);
    const previous = turn.tail;
    const run = (async () => {
      await Promise.race([previous, abortOf(signal)]);
      return this.execute(request, signal);
    })();
    turn.tail = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      turn.held--;
      if (turn.held === 0) this.sessions.delete(session);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.pool.end();
  }

  private async execute(request: AnalyticsRequest, signal?: AbortSignal): Promise<SqlRun> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
    let released = false;
    // A connection cut on purpose (too many bytes, an abort) reports its end here, not as a crash.
    client.on('error', (error) => {
      if (!released && !this.cut.has(client)) this.options.onError?.(error);
    });
    // Destroyed, never returned to the pool: session state (SET, advisory locks, prepared plans) dies with it.
    const release = () => {
      if (released) return;
      released = true;
      client.release(true);
    };
    const started = performance.now();
    // statement_timeout ends a slow query on the server; the pool's query_timeout a silent server or network.
    const stopped = new Promise<never>((_, reject) => {
      if (!signal) return;
      const onAbort = () => {
        release();
        reject(signal.reason ?? new Error('aborted'));
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    stopped.catch(() => undefined);
    try {
      return await Promise.race([stopped, this.run(client, request, started)]);
    } finally {
      release();
    }
  }

  private async run(client: PoolClient, request: AnalyticsRequest, started: number): Promise<SqlRun> {
    const timeoutMs = Math.max(1, Math.round(this.options.timeoutMs));
    const rowLimit = Math.min(request.limit, this.options.rowLimit);
    const rows: Array<Array<string | number | null>> = [];
    let columns: string[] = [];
    let truncated: false | 'rows' | 'bytes' = false;
    let bytes = 1;
    const done = (): SqlRun => ({
      ok: true,
      columns,
      rows,
      truncated,
      bytes: Math.max(bytes, 2),
      elapsedMs: Math.round((performance.now() - started) * 10) / 10,
    });
    // pg buffers a whole row before handing it over: one value of hundreds of MB would be held in this
    // process. So the socket is watched, and cut once far more bytes arrive than the result may hold.
    const socket = (client as unknown as { connection?: { stream?: RawSocket } }).connection?.stream;
    const rawCap = RAW_FACTOR * this.options.byteLimit + RAW_SLACK;
    let received = 0;
    let overflow = false;
    let cursor: InstanceType<typeof import('pg-cursor')> | undefined;
    try {
      await client.query('BEGIN READ ONLY');
      await client.query(`SET LOCAL statement_timeout = ${timeoutMs}`);
      socket?.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > rawCap && !overflow) {
          overflow = true;
          this.cut.add(client);
          socket.destroy();
        }
      });
      const reader = client.query(
        new this.Cursor(request.sql, request.params, { rowMode: 'array', types: RAW_TYPES as never }),
      );
      cursor = reader;
      let types: number[] = [];
      let rawPerRow = 0;
      reading: for (let reads = 0; ; reads++) {
        // Few rows first; then as many as the byte budget left can hold, by the rows' size so far.
        const fit = rawPerRow > 0 ? Math.ceil((this.options.byteLimit - bytes) / rawPerRow) + 1 : FIRST_BATCH;
        const want = Math.max(
          1,
          Math.min(reads === 0 ? FIRST_BATCH : BATCH, fit, rowLimit - rows.length + 1),
        );
        const before = received;
        const { rows: batch, fields } = await new Promise<{
          rows: Array<Array<string | null>>;
          fields: Array<{ name: string; dataTypeID: number }>;
        }>((resolve, reject) =>
          reader.read(want, (error, got, result) =>
            error ? reject(error) : resolve({ rows: got as never, fields: (result?.fields ?? []) as never }),
          ),
        );
        if (batch.length > 0) rawPerRow = Math.max(rawPerRow, (received - before) / batch.length);
        if (columns.length === 0 && fields.length > 0) {
          columns = fields.map((f) => f.name);
          types = fields.map((f) => f.dataTypeID);
        }
        for (const raw of batch) {
          if (rows.length === rowLimit) {
            truncated = 'rows';
            break reading;
          }
          const values = raw.map((v, i) => cell(v, types[i] ?? 0));
          const size = Buffer.byteLength(JSON.stringify(values)) + 1;
          if (bytes + size > this.options.byteLimit) {
            truncated = 'bytes';
            break reading;
          }
          bytes += size;
          rows.push(values);
        }
        // A short batch: the cursor has no more rows.
        if (batch.length < want) break;
      }
      // A cursor left open would keep the connection busy: closed first, then the transaction undone.
      await reader.close();
      await client.query('ROLLBACK');
      return done();
    } catch (error) {
      if (overflow) {
        // The rows already read fit; the next one would not (the connection is gone with it).
        truncated = 'bytes';
        if (columns.length === 0) {
          const fields = (cursor as unknown as { _result?: { fields?: Array<{ name: string }> } })?._result
            ?.fields;
          columns = (fields ?? []).map((f) => f.name);
        }
        return done();
      }
      const code = (error as { code?: unknown }).code;
      if (code === '57014') {
        return {
          ok: false,
          kind: 'timeout',
          message:
            `La consulta superó el límite de ${timeoutMs / 1000} s y se canceló. Acota la consulta (WHERE, ` +
            'LIMIT, menos uniones) o evita CTE recursivas sin fin.',
        };
      }
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith('08')) {
        if (code === '42501' || code === '25006') {
          return {
            ok: false,
            kind: 'refused',
            message: `PostgreSQL lo impide: ${(error as Error).message}.`,
          };
        }
        return { ok: false, kind: 'error', message: (error as Error).message };
      }
      throw unavailable(error);
    }
  }
}

/** Rejects when `signal` aborts (never settles without one). */
function abortOf(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

const unavailable = (error: unknown) =>
  refuse.unavailable(
    `El sistema academy no está disponible: su base de datos PostgreSQL no responde (${reason(error)}). ` +
      'Vuelve a intentarlo en unos segundos.',
  );
