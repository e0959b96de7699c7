import type { RestHandler } from '@code-cluster/shared';
import { academyApi, SQL_BYTE_LIMIT, SQL_ROW_LIMIT, SQL_TIMEOUT_MS } from '@code-cluster/shared/academy';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Analytics } from './analytics.js';
import { Courses } from './courses.js';
import { Progress } from './progress.js';
import { Quizzes } from './quizzes.js';
import { academyRoutes } from './routes.js';
import { ReadOnlySqlRunner } from './sql-runner.js';
import { type AcademyStore, openAcademyStore } from './store.js';

export interface AcademySystemOptions {
  /** SQLite file of the academy; `academy.db` under the cluster's data dir by default. */
  file?: string;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  /** Analytics limits (tests shorten the deadline). */
  sqlRowLimit?: number;
  sqlTimeoutMs?: number;
  sqlByteLimit?: number;
  /** Analytics children running queries at once (default 2). */
  sqlPoolSize?: number;
  onError?: (error: unknown) => void;
}

export interface AcademySystem {
  handler: RestHandler;
  store: AcademyStore;
  close(): void;
}

/** The academy platform: its SQLite store and analytics runner, served as the API of packages/shared/src/academy/api.ts. */
export function createAcademySystem(options: AcademySystemOptions = {}): AcademySystem {
  const file = options.file ?? dataFile('academy.db');
  if (file === ':memory:') {
    // The analytics child opens the file on its own, read-only: an in-memory database has no file to open.
    throw new Error('the academy system needs a database file (the analytics queries open it read-only)');
  }
  const store = openAcademyStore(file);
  const now = options.now ?? Date.now;
  const limits = {
    rows: options.sqlRowLimit ?? SQL_ROW_LIMIT,
    bytes: options.sqlByteLimit ?? SQL_BYTE_LIMIT,
  };
  const sql = new ReadOnlySqlRunner({
    file,
    rowLimit: limits.rows,
    byteLimit: limits.bytes,
    timeoutMs: options.sqlTimeoutMs ?? SQL_TIMEOUT_MS,
    ...(options.sqlPoolSize ? { poolSize: options.sqlPoolSize } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const courses = new Courses(store);
  const progress = new Progress(store, courses, now);
  const quizzes = new Quizzes(store, progress, now);
  const analytics = new Analytics(store, sql, limits);
  return {
    handler: routes(academyApi, academyRoutes({ courses, progress, quizzes, analytics }), options.onError),
    store,
    close: () => {
      sql.close();
      store.close();
    },
  };
}
