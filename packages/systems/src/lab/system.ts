import { dirname, join } from 'node:path';
import { type RestHandler, withoutPassword } from '@code-cluster/shared';
import { labApi } from '@code-cluster/shared/lab';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Grader } from './grader.js';
import { embeddedRoster, remoteRoster, type StudentRoster } from './roster.js';
import { labRoutes } from './routes.js';
import { GradingSandbox } from './sandbox.js';
import { Sessions } from './sessions.js';
import { SqliteLabStore } from './sqlite-store.js';
import type { LabStore } from './store.js';

export interface LabSystemOptions {
  /** SQLite file of sessions and submissions; `lab.db` under the cluster's data dir by default. */
  file?: string;
  /** Pause between two rules while grading, ms: lets a client watch the progress (demos, tests). */
  stepDelayMs?: number;
  /**
   * Wall-clock budget of one grading, ms (pauses of `stepDelayMs` excluded): past it the grading stops
   * and the submission is `no_terminada`. Default 10 000.
   */
  gradingBudgetMs?: number;
  /**
   * Base URL (and token) of the academy system whose roster owns student ids. Unset: the academy of the
   * same data dir, read in process (its `academy.db`, else its reference roster).
   */
  academyApiUrl?: string | undefined;
  academyApiToken?: string | undefined;
  /**
   * The academy's SQLite file the in-process roster reads: by default `academy.db` beside the lab's file,
   * or in the data dir when the lab's store is on PostgreSQL.
   */
  academyFile?: string;
  /** The roster itself, instead of one built from the settings above. */
  roster?: StudentRoster;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface LabDatabaseOptions {
  /** The store on PostgreSQL at this URL (`LAB_DATABASE_URL`, schema `lab`); unset: SQLite as `file`. */
  databaseUrl?: string | undefined;
  /** Connections of this system's pool (default 4). */
  poolSize?: number;
  /** Longest a query may take before the call is answered "no está disponible", ms (default 10 000). */
  queryTimeoutMs?: number;
}

export interface LabSystem {
  handler: RestHandler;
  store: LabStore;
  /** Resolves when every grading queued so far has finished. */
  idle(): Promise<void>;
  /** Stops grading (the grading in progress is handed back), then closes the store. */
  close(): Promise<void>;
}

const DEFAULT_GRADING_BUDGET_MS = 10_000;

/** The lab suite on its SQLite store, served as the API of packages/shared/src/lab/api.ts. */
export function createLabSystem(options: LabSystemOptions = {}): LabSystem {
  const file = options.file ?? dataFile('lab.db');
  // The academy system keeps `academy.db` in the same data dir.
  return serve(new SqliteLabStore(file), options, join(dirname(file), 'academy.db'));
}

/**
 * The lab suite on PostgreSQL when `databaseUrl` is set (the driver is loaded only then; replicas on one
 * URL share sessions, submissions and gradings), else on SQLite. Rejects when PostgreSQL cannot be used.
 */
export async function openLabSystem(options: LabSystemOptions & LabDatabaseOptions = {}): Promise<LabSystem> {
  if (!options.databaseUrl) return createLabSystem(options);
  const { openPostgresLabStore } = await import('./postgres-store.js');
  const store = await openPostgresLabStore({
    url: options.databaseUrl,
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    onError: options.onError,
  });
  return serve(store, options, dataFile('academy.db'));
}

function serve(store: LabStore, options: LabSystemOptions, academyFile: string): LabSystem {
  const roster =
    options.roster ??
    (options.academyApiUrl
      ? remoteRoster({ baseUrl: options.academyApiUrl, token: options.academyApiToken })
      : embeddedRoster(options.academyFile ?? academyFile));
  const now = options.now ?? Date.now;
  const sandbox = new GradingSandbox();
  const grader = new Grader(store, sandbox, {
    now,
    stepDelayMs: options.stepDelayMs ?? 0,
    budgetMs: options.gradingBudgetMs ?? DEFAULT_GRADING_BUDGET_MS,
    onError: options.onError,
  });
  grader.resume();
  const sessions = new Sessions(store, roster, grader, now);
  let closing: Promise<void> | undefined;
  return {
    handler: routes(labApi, labRoutes(sessions), options.onError),
    store,
    idle: () => grader.idle(),
    close: () => {
      closing ??= (async () => {
        const stopped = grader.close();
        // A grading waiting on the sandbox ends at once (and hands its submission back).
        sandbox.close();
        await stopped;
        await roster.close?.();
        await store.close();
      })();
      return closing;
    },
  };
}

/**
 * `code-systems migrate lab`: creates or upgrades the lab's schema on PostgreSQL at `databaseUrl`, or its
 * SQLite file in the data dir without one. Idempotent; resolves to what it did, in one line (no password).
 */
export async function migrateLab(databaseUrl: string | undefined): Promise<string> {
  const said = (where: string, from: number, to: number) =>
    from === to
      ? `lab: ${where} already at schema version ${to}, nothing to do`
      : `lab: ${where} migrated from schema version ${from} to ${to}`;
  if (!databaseUrl) {
    const { openDatabase } = await import('../storage/index.js');
    const file = dataFile('lab.db');
    const before = openDatabase(file);
    const from = before.prepare('PRAGMA user_version').get<{ user_version: number }>()?.user_version ?? 0;
    before.close();
    const store = new SqliteLabStore(file);
    const to = store.version;
    await store.close();
    return said(`SQLite ${file}`, from, to);
  }
  const { openPostgresLabStore } = await import('./postgres-store.js');
  let store: Awaited<ReturnType<typeof openPostgresLabStore>>;
  let from: number;
  try {
    from = await pgSchemaVersion(databaseUrl);
    store = await openPostgresLabStore({ url: databaseUrl });
  } catch (error) {
    throw new Error(
      `PostgreSQL ${withoutPassword(databaseUrl)} unusable (${error instanceof Error ? error.message : error})`,
    );
  }
  try {
    return said(`PostgreSQL ${store.where}`, from, await store.version());
  } finally {
    await store.close();
  }
}

/** The version schema `lab` is at (0: not there yet), read without creating or migrating anything. */
async function pgSchemaVersion(url: string): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ found: string | null }>(
      "SELECT to_regclass('lab.schema_version')::text AS found",
    );
    if (!rows[0]?.found) return 0;
    return (
      (await client.query<{ version: number }>('SELECT version FROM lab.schema_version')).rows[0]?.version ??
      0
    );
  } finally {
    await client.end();
  }
}
