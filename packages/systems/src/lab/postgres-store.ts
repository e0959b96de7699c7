import { openPostgres, type PgDatabase, type PgQueries } from '../storage/index.js';
import {
  idsOf,
  LAB_SQL,
  type LabStatement,
  type LabStore,
  labsOf,
  type NewSubmission,
  type RuleResultRow,
  ruleResultOf,
  type SessionRow,
  type SubmissionRow,
} from './store.js';

/**
 * The lab store's PostgreSQL schema (`lab`), in order: the tables and constraints of the SQLite file at its
 * latest version (sqlite-store.ts), in one step since no PostgreSQL store predates `attempts`. Ids and labs
 * compare byte by byte (COLLATE "C"), as SQLite's BINARY does, so lists come back in the same order.
 * Never edit one, append.
 */
export const PG_MIGRATIONS = [
  `CREATE TABLE session (
     id text COLLATE "C" PRIMARY KEY,
     lab text COLLATE "C" NOT NULL,
     student text COLLATE "C" NOT NULL,
     started_ms int8 NOT NULL
   );
   CREATE TABLE submission (
     id text COLLATE "C" PRIMARY KEY,
     session_id text COLLATE "C" NOT NULL REFERENCES session (id),
     content text NOT NULL,
     size_bytes integer NOT NULL,
     submitted_ms int8 NOT NULL,
     status text NOT NULL
       CHECK (status IN ('pendiente', 'evaluando', 'evaluada', 'fallo_interno', 'no_terminada')),
     rules_total integer NOT NULL,
     rules_done integer NOT NULL DEFAULT 0,
     claimed_ms int8,
     finished_ms int8,
     attempts integer NOT NULL DEFAULT 0,
     reason text
   );
   CREATE INDEX submission_by_session ON submission (session_id, submitted_ms);
   CREATE INDEX submission_by_status ON submission (status);
   CREATE TABLE rule_result (
     submission_id text COLLATE "C" NOT NULL REFERENCES submission (id),
     position integer NOT NULL,
     rule text NOT NULL,
     title text NOT NULL,
     outcome text NOT NULL CHECK (outcome IN ('superada', 'fallida', 'no_aplica')),
     findings text NOT NULL,
     PRIMARY KEY (submission_id, position)
   );`,
];

export interface PostgresLabStoreOptions {
  url: string;
  poolSize?: number;
  queryTimeoutMs?: number;
  connectTimeoutMs?: number;
  onError?: ((error: unknown) => void) | undefined;
}

/** Opens (and migrates) the lab store in schema `lab` at `url`; rejects when PostgreSQL cannot be used. */
export async function openPostgresLabStore(options: PostgresLabStoreOptions): Promise<PostgresLabStore> {
  const db = await openPostgres({
    url: options.url,
    system: 'lab',
    migrations: PG_MIGRATIONS,
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return new PostgresLabStore(db);
}

const run = (on: PgQueries, s: LabStatement) => on.run(s.text, s.params);

/**
 * The lab store on PostgreSQL, shared by every replica on the URL. What SQLite makes safe with one writer
 * at a time is made safe here by the engine: a claim is one conditional UPDATE (a racing replica waits for
 * the row lock and re-checks the condition, so exactly one wins and counts one attempt), and each pair of
 * writes that belong together runs in one transaction.
 */
export class PostgresLabStore implements LabStore {
  constructor(private readonly db: PgDatabase) {}

  get where(): string {
    return `${this.db.where} (schema ${this.db.schema})`;
  }

  /** How many of PG_MIGRATIONS the schema has run. */
  async version(): Promise<number> {
    return (await this.db.row<{ version: number }>('SELECT version FROM schema_version'))?.version ?? 0;
  }

  async insertSession(row: Omit<SessionRow, 'submissions'>): Promise<void> {
    await run(this.db, LAB_SQL.insertSession(row));
  }

  session(id: string): Promise<SessionRow | undefined> {
    const s = LAB_SQL.session(id);
    return this.db.row<SessionRow>(s.text, s.params);
  }

  async insertSubmission(row: NewSubmission): Promise<void> {
    await run(this.db, LAB_SQL.insertSubmission(row));
  }

  submission(id: string): Promise<SubmissionRow | undefined> {
    const s = LAB_SQL.submission(id);
    return this.db.row<SubmissionRow>(s.text, s.params);
  }

  async content(id: string): Promise<string | undefined> {
    const s = LAB_SQL.content(id);
    return (await this.db.row<{ content: string }>(s.text, s.params))?.content;
  }

  claim(id: string, nowMs: number, staleMs: number): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const claimed = (await run(tx, LAB_SQL.claim(id, nowMs, staleMs))) === 1;
      if (claimed) await run(tx, LAB_SQL.clearResults(id));
      return claimed;
    });
  }

  addRuleResult(id: string, position: number, result: RuleResultRow): Promise<void> {
    return this.db.transaction(async (tx) => {
      await run(tx, LAB_SQL.insertResult(id, position, result));
      await run(tx, LAB_SQL.progress(id, position + 1));
    });
  }

  release(id: string): Promise<void> {
    return this.db.transaction(async (tx) => {
      if ((await run(tx, LAB_SQL.release(id))) === 1) await run(tx, LAB_SQL.clearResults(id));
    });
  }

  async finish(id: string, status: 'evaluada' | 'fallo_interno', nowMs: number): Promise<void> {
    await run(this.db, LAB_SQL.finish(id, status, nowMs, null));
  }

  async abandon(id: string, reason: string, nowMs: number): Promise<void> {
    await run(this.db, LAB_SQL.finish(id, 'no_terminada', nowMs, reason));
  }

  async ruleResults(id: string): Promise<RuleResultRow[]> {
    const s = LAB_SQL.results(id);
    return (await this.db.rows<Parameters<typeof ruleResultOf>[0]>(s.text, s.params)).map(ruleResultOf);
  }

  async passedLabs(student: string): Promise<string[]> {
    const s = LAB_SQL.passedLabs(student);
    return labsOf(await this.db.rows<{ lab: string }>(s.text, s.params));
  }

  async unfinished(nowMs: number, staleMs: number): Promise<string[]> {
    const s = LAB_SQL.unfinished(nowMs, staleMs);
    return idsOf(await this.db.rows<{ id: string }>(s.text, s.params));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
