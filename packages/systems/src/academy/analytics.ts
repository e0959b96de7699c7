import type { SqlQueryRequestSchema, SqlResult, Table } from '@code-cluster/shared/academy';
import type { z } from 'zod';
import { refuse } from '../refusal.js';
import { SqlRefusal, screenQuery } from './sql-guard.js';
import type { ReadOnlySqlRunner } from './sql-runner.js';
import { type AcademyStore, TABLE_DESCRIPTIONS } from './store.js';

export type AnalyticsQuery = z.output<typeof SqlQueryRequestSchema>;

/** Read-only analytics: one screened SELECT at a time in a read-only child, and the tables it may read. */
export class Analytics {
  constructor(
    private readonly store: AcademyStore,
    private readonly sql: ReadOnlySqlRunner,
    private readonly limits: { rows: number; bytes: number },
  ) {}

  async query(query: AnalyticsQuery, signal?: AbortSignal): Promise<SqlResult> {
    const screened = screen(query.sql);
    const rowLimit = Math.min(query.limit ?? Number.POSITIVE_INFINITY, this.limits.rows);
    const run = await this.sql.run(
      {
        sql: query.sql,
        // SQLite has no boolean type: true and false are stored and compared as 1 and 0.
        params: query.params.map((p) => (typeof p === 'boolean' ? Number(p) : p)),
        numbered: screened.numbered,
        names: screened.names,
        limit: rowLimit,
        ...(query.session ? { session: query.session } : {}),
      },
      signal,
    );
    if (!run.ok) {
      const detail =
        run.kind === 'refused'
          ? `Consulta rechazada: ${run.message} consulta_sql solo ejecuta lecturas de la analítica.`
          : run.kind === 'error'
            ? `La consulta no es válida para SQLite: ${run.message}`
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

  tables(): Table[] {
    return this.store.tableNames().map((name) => this.table(name));
  }

  table(name: string): Table {
    const names = this.store.tableNames();
    if (!names.includes(name)) {
      throw refuse.notFound(`No existe la tabla '${name}'. Tablas: ${names.join(', ')}.`, { table: name });
    }
    return {
      name,
      description: TABLE_DESCRIPTIONS[name] ?? '',
      row_count: this.store.rowCount(name),
      columns: this.store.columns(name).map((c) => ({
        name: c.name,
        type: c.type,
        // A primary key column of a rowid table accepts no NULL even without NOT NULL.
        nullable: c.notnull === 0 && !(c.pk > 0 && c.type.toUpperCase() === 'INTEGER'),
        default: c.dflt_value,
        primary_key: c.pk > 0,
      })),
      foreign_keys: this.store
        .foreignKeys(name)
        .map((fk) => ({ column: fk.from, references: `${fk.table}.${fk.to}` })),
    };
  }
}

function screen(sql: string): ReturnType<typeof screenQuery> {
  try {
    return screenQuery(sql);
  } catch (error) {
    if (error instanceof SqlRefusal) throw refuse.unprocessable(error.message, { refused: 'guard' });
    throw error;
  }
}
