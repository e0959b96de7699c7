import { type RestHandler, withoutPassword } from '@code-cluster/shared';
import { academyApi, SQL_BYTE_LIMIT, SQL_ROW_LIMIT, SQL_TIMEOUT_MS } from '@code-cluster/shared/academy';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Analytics, type AnalyticsEngine } from './analytics.js';
import { ANALYTICS_VARIABLE } from './analytics-role.js';
import { Courses } from './courses.js';
import { Progress } from './progress.js';
import { Quizzes } from './quizzes.js';
import { academyRoutes } from './routes.js';
import { ReadOnlySqlRunner, sqliteAnalytics } from './sql-runner.js';
import { openSqliteAcademyStore } from './sqlite-store.js';
import type { AcademyStore } from './store.js';

export interface AcademySystemOptions {
  /** SQLite file of the academy; `academy.db` under the cluster's data dir by default. */
  file?: string;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  /** Analytics limits (tests shorten the deadline). */
  sqlRowLimit?: number;
  sqlTimeoutMs?: number;
  sqlByteLimit?: number;
  /** Analytics children (SQLite) or connections (PostgreSQL) running queries at once (default 2). */
  sqlPoolSize?: number;
  onError?: (error: unknown) => void;
}

export interface AcademyOpenOptions extends AcademySystemOptions {
  /** `ACADEMY_DATABASE_URL`: the store on PostgreSQL (schema `academy`) instead of the SQLite file. */
  databaseUrl?: string | undefined;
  /** `ACADEMY_ANALYTICS_DATABASE_URL`: consulta_sql's SELECT-only role; required with `databaseUrl`. */
  analyticsUrl?: string | undefined;
}

export interface AcademySystem {
  handler: RestHandler;
  store: AcademyStore;
  close(): Promise<void>;
}

const limitsOf = (options: AcademySystemOptions) => ({
  rows: options.sqlRowLimit ?? SQL_ROW_LIMIT,
  bytes: options.sqlByteLimit ?? SQL_BYTE_LIMIT,
  timeoutMs: options.sqlTimeoutMs ?? SQL_TIMEOUT_MS,
});

/** The academy platform on its SQLite file and read-only analytics children, served as the API of packages/shared/src/academy/api.ts. */
export function createAcademySystem(options: AcademySystemOptions = {}): AcademySystem {
  const file = options.file ?? dataFile('academy.db');
  if (file === ':memory:') {
    // The analytics child opens the file on its own, read-only: an in-memory database has no file to open.
    throw new Error('the academy system needs a database file (the analytics queries open it read-only)');
  }
  const store = openSqliteAcademyStore(file);
  const limits = limitsOf(options);
  const runner = new ReadOnlySqlRunner({
    file,
    rowLimit: limits.rows,
    byteLimit: limits.bytes,
    timeoutMs: limits.timeoutMs,
    ...(options.sqlPoolSize ? { poolSize: options.sqlPoolSize } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return serve(store, sqliteAnalytics(runner), options);
}

/**
 * The academy on PostgreSQL when `databaseUrl` is set (the drivers are loaded only then), else on SQLite.
 * On PostgreSQL the analytics credentials are required and must be SELECT-only: otherwise it rejects with
 * an AnalyticsSettingError naming ACADEMY_ANALYTICS_DATABASE_URL. Rejects too when the engine cannot be used.
 */
export async function openAcademySystem(options: AcademyOpenOptions = {}): Promise<AcademySystem> {
  if (!options.databaseUrl) return createAcademySystem(options);
  const { AnalyticsSettingError, PgReadOnlySql } = await import('./pg-sql-runner.js');
  if (!options.analyticsUrl) {
    throw new AnalyticsSettingError(
      `${ANALYTICS_VARIABLE} is not set: with ACADEMY_DATABASE_URL, consulta_sql needs separate SELECT-only ` +
        'credentials (code-systems migrate academy creates that role)',
    );
  }
  const { openPostgresAcademyStore } = await import('./postgres-store.js');
  const store = await openPostgresAcademyStore({
    url: options.databaseUrl,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const limits = limitsOf(options);
  try {
    const sql = await PgReadOnlySql.open({
      url: options.analyticsUrl,
      rowLimit: limits.rows,
      byteLimit: limits.bytes,
      timeoutMs: limits.timeoutMs,
      ...(options.sqlPoolSize ? { poolSize: options.sqlPoolSize } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
    });
    return serve(store, sql, options);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
}

function serve(store: AcademyStore, sql: AnalyticsEngine, options: AcademySystemOptions): AcademySystem {
  const now = options.now ?? Date.now;
  const limits = limitsOf(options);
  const courses = new Courses(store);
  const progress = new Progress(store, courses, now);
  const quizzes = new Quizzes(store, progress, now);
  const analytics = new Analytics(store, sql, limits);
  return {
    handler: routes(academyApi, academyRoutes({ courses, progress, quizzes, analytics }), options.onError),
    store,
    close: async () => {
      // SQLite closes synchronously here (callers that do not await still find the file complete).
      const closing = [sql.close(), store.close()];
      await Promise.all(closing);
    },
  };
}

/**
 * `code-systems migrate academy`: the schema on PostgreSQL at `databaseUrl` (an administrator's), plus the
 * analytics role of `analyticsUrl` and its grants; or the SQLite file without a URL. Idempotent. One line.
 */
export async function migrateAcademy(options: {
  databaseUrl?: string | undefined;
  analyticsUrl?: string | undefined;
  file?: string;
}): Promise<string> {
  if (!options.databaseUrl) {
    const store = openSqliteAcademyStore(options.file ?? dataFile('academy.db'));
    await store.close();
    return `academy: SQLite ${store.where} is up to date`;
  }
  const { openPostgresDatabase, ACADEMY_SCHEMA, PG_MIGRATIONS } = await import('./postgres-store.js');
  const { ensureAnalyticsRole } = await import('./analytics-role.js');
  const db = await openPostgresDatabase({ url: options.databaseUrl, poolSize: 1 });
  try {
    const version = (await db.row<{ version: number }>('SELECT version FROM schema_version'))!.version;
    const role = options.analyticsUrl
      ? `; ${await db.transaction((tx) => ensureAnalyticsRole(tx, options.analyticsUrl!))}`
      : `; no ${ANALYTICS_VARIABLE}, so no analytics role (the server needs one to start)`;
    return (
      `academy: schema ${ACADEMY_SCHEMA} at version ${version}/${PG_MIGRATIONS.length} on ` +
      `${withoutPassword(options.databaseUrl)}${role}`
    );
  } finally {
    await db.close();
  }
}
