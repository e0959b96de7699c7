import type { SqlQueryRequestSchema, SqlResult, Table } from '@code-cluster/shared/academy';
import type { z } from 'zod';
import { refuse } from '../refusal.js';
import type { SqlRun } from './sql-runner.js';
import { type AcademyQueries, TABLE_DESCRIPTIONS } from './store.js';

export type AnalyticsQuery = z.output<typeof SqlQueryRequestSchema>;

/** One analytics query as an engine runs it: parameters already bound-ready, the row limit decided. */
export interface AnalyticsRequest {
  sql: string;
  params: Array<string | number | null>;
  limit: number;
  session?: string;
}

/**
 * Where consulta_sql runs: SQLite's token screen and read-only child (sql-runner.ts), or PostgreSQL's
 * parser and SELECT-only role (pg-sql-runner.ts). Each refuses in Spanish; `guard` refusals are final.
 */
export interface AnalyticsEngine {
  readonly dialect: 'SQLite' | 'PostgreSQL';
  query(request: AnalyticsRequest, signal?: AbortSignal): Promise<SqlRun>;
  close(): Promise<void> | void;
}

/** Read-only analytics: one screened SELECT at a time on a read-only engine, and the tables it may read. */
export class Analytics {
  constructor(
    private readonly store: AcademyQueries,
    private readonly sql: AnalyticsEngine,
    private readonly limits: { rows: number; bytes: number },
  ) {}

  async query(query: AnalyticsQuery, signal?: AbortSignal): Promise<SqlResult> {
    const rowLimit = Math.min(query.limit ?? Number.POSITIVE_INFINITY, this.limits.rows);
    const run = await this.sql.query(
      {
        sql: query.sql,
        // The stores keep booleans as 1 and 0 (SQLite has no boolean type; PostgreSQL reads '1' as true).
        params: query.params.map((p) => (typeof p === 'boolean' ? Number(p) : p)),
        limit: rowLimit,
        ...(query.session ? { session: query.session } : {}),
      },
      signal,
    );
    if (!run.ok) {
      if (run.kind === 'guard') throw refuse.unprocessable(run.message, { refused: 'guard' });
      const detail =
        run.kind === 'refused'
          ? `Consulta rechazada: ${run.message} consulta_sql solo ejecuta lecturas de la analítica.`
          : run.kind === 'error'
            ? `La consulta no es válida para ${this.sql.dialect}: ${run.message}`
            : run.message;
      throw refuse.unprocessable(detail, { refused: run.kind });
    }
    return {
      columns: run.columns,
      rows: run.rows,
      row_count: run.rows.length,
      truncated: run.truncated !== false,
      ...(run.truncated ? { truncated_by: run.truncated } : {}),
      row_limit: rowLimit,
      byte_limit: this.limits.bytes,
      bytes: run.bytes,
      elapsed_ms: run.elapsedMs,
    };
  }

  async tables(): Promise<Table[]> {
    const names = await this.store.tableNames();
    const tables: Table[] = [];
    for (const name of names) tables.push(await this.describe(name));
    return tables;
  }

  async table(name: string): Promise<Table> {
    const names = await this.store.tableNames();
    if (!names.includes(name)) {
      throw refuse.notFound(`No existe la tabla '${name}'. Tablas: ${names.join(', ')}.`, { table: name });
    }
    return this.describe(name);
  }

  private async describe(name: string): Promise<Table> {
    return {
      name,
      description: TABLE_DESCRIPTIONS[name] ?? '',
      row_count: await this.store.rowCount(name),
      columns: await this.store.columns(name),
      foreign_keys: (await this.store.foreignKeys(name)).map((fk) => ({
        column: fk.from,
        references: `${fk.table}.${fk.to}`,
      })),
    };
  }
}
