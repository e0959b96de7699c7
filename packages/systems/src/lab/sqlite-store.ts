import { openDatabase, type SqlDatabase, type SqlStatement } from '../storage/index.js';
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

/** The lab store's SQLite schema, in order (`PRAGMA user_version` counts them); never edit one, append. */
export const MIGRATIONS = [
  `CREATE TABLE session (
     id TEXT PRIMARY KEY,
     lab TEXT NOT NULL,
     student TEXT NOT NULL,
     started_ms INTEGER NOT NULL
   );
   CREATE TABLE submission (
     id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL REFERENCES session (id),
     content TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     submitted_ms INTEGER NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pendiente', 'evaluando', 'evaluada', 'fallo_interno')),
     rules_total INTEGER NOT NULL,
     rules_done INTEGER NOT NULL DEFAULT 0,
     claimed_ms INTEGER,
     finished_ms INTEGER
   );
   CREATE INDEX submission_by_session ON submission (session_id, submitted_ms);
   CREATE INDEX submission_by_status ON submission (status);
   CREATE TABLE rule_result (
     submission_id TEXT NOT NULL REFERENCES submission (id),
     position INTEGER NOT NULL,
     rule TEXT NOT NULL,
     title TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('superada', 'fallida', 'no_aplica')),
     findings TEXT NOT NULL,
     PRIMARY KEY (submission_id, position)
   ) WITHOUT ROWID;`,
  // A grading that overruns its budget (or kills its grader) ends as `no_terminada`, with a reason, and
  // `attempts` stops a submission that keeps killing its grader from being retried forever. SQLite cannot
  // alter a CHECK constraint: both tables are rebuilt (child first, so the foreign key always holds).
  `CREATE TABLE submission_v1 AS SELECT * FROM submission;
   CREATE TABLE rule_result_v1 AS SELECT * FROM rule_result;
   DROP TABLE rule_result;
   DROP TABLE submission;
   CREATE TABLE submission (
     id TEXT PRIMARY KEY,
     session_id TEXT NOT NULL REFERENCES session (id),
     content TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     submitted_ms INTEGER NOT NULL,
     status TEXT NOT NULL
       CHECK (status IN ('pendiente', 'evaluando', 'evaluada', 'fallo_interno', 'no_terminada')),
     rules_total INTEGER NOT NULL,
     rules_done INTEGER NOT NULL DEFAULT 0,
     claimed_ms INTEGER,
     finished_ms INTEGER,
     attempts INTEGER NOT NULL DEFAULT 0,
     reason TEXT
   );
   INSERT INTO submission (id, session_id, content, size_bytes, submitted_ms, status, rules_total, rules_done,
                           claimed_ms, finished_ms)
     SELECT id, session_id, content, size_bytes, submitted_ms, status, rules_total, rules_done, claimed_ms,
            finished_ms
     FROM submission_v1;
   CREATE INDEX submission_by_session ON submission (session_id, submitted_ms);
   CREATE INDEX submission_by_status ON submission (status);
   CREATE TABLE rule_result (
     submission_id TEXT NOT NULL REFERENCES submission (id),
     position INTEGER NOT NULL,
     rule TEXT NOT NULL,
     title TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('superada', 'fallida', 'no_aplica')),
     findings TEXT NOT NULL,
     PRIMARY KEY (submission_id, position)
   ) WITHOUT ROWID;
   INSERT INTO rule_result SELECT * FROM rule_result_v1;
   DROP TABLE rule_result_v1;
   DROP TABLE submission_v1;`,
];

/** `$1, $2, …` (each once, in order) as SQLite's anonymous `?`: the statements of LAB_SQL, unchanged. */
export function positional(sql: string): string {
  let next = 1;
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    if (Number(n) !== next++) throw new Error(`parameters out of order in ${JSON.stringify(sql)}`);
    return '?';
  });
}

/**
 * The lab store in a SQLite file (`lab.db` under the data dir). The driver is synchronous, so every method
 * runs to its end, transaction included, before any other request's code runs: no two interleave.
 */
export class SqliteLabStore implements LabStore {
  private readonly db: SqlDatabase;
  private readonly prepared = new Map<string, SqlStatement>();

  constructor(file: string) {
    this.db = openDatabase(file, { migrations: MIGRATIONS });
  }

  get file(): string {
    return this.db.file;
  }

  get where(): string {
    return this.db.file;
  }

  /** How many of MIGRATIONS the file has run. */
  get version(): number {
    return this.db.prepare('PRAGMA user_version').get<{ user_version: number }>()?.user_version ?? 0;
  }

  private statement({ text }: LabStatement): SqlStatement {
    let found = this.prepared.get(text);
    if (!found) {
      found = this.db.prepare(positional(text));
      this.prepared.set(text, found);
    }
    return found;
  }

  private run(s: LabStatement): number {
    return this.statement(s).run(...s.params).changes;
  }

  private get<T>(s: LabStatement): T | undefined {
    return this.statement(s).get<T>(...s.params);
  }

  private all<T>(s: LabStatement): T[] {
    return this.statement(s).all<T>(...s.params);
  }

  async insertSession(row: Omit<SessionRow, 'submissions'>): Promise<void> {
    this.run(LAB_SQL.insertSession(row));
  }

  async session(id: string): Promise<SessionRow | undefined> {
    return this.get<SessionRow>(LAB_SQL.session(id));
  }

  async insertSubmission(row: NewSubmission): Promise<void> {
    this.run(LAB_SQL.insertSubmission(row));
  }

  async submission(id: string): Promise<SubmissionRow | undefined> {
    return this.get<SubmissionRow>(LAB_SQL.submission(id));
  }

  async content(id: string): Promise<string | undefined> {
    return this.get<{ content: string }>(LAB_SQL.content(id))?.content;
  }

  async claim(id: string, nowMs: number, staleMs: number): Promise<boolean> {
    return this.db.transaction(() => {
      const claimed = this.run(LAB_SQL.claim(id, nowMs, staleMs)) === 1;
      if (claimed) this.run(LAB_SQL.clearResults(id));
      return claimed;
    });
  }

  async addRuleResult(id: string, position: number, result: RuleResultRow): Promise<void> {
    this.db.transaction(() => {
      this.run(LAB_SQL.insertResult(id, position, result));
      this.run(LAB_SQL.progress(id, position + 1));
    });
  }

  async release(id: string): Promise<void> {
    this.db.transaction(() => {
      if (this.run(LAB_SQL.release(id)) === 1) this.run(LAB_SQL.clearResults(id));
    });
  }

  async finish(id: string, status: 'evaluada' | 'fallo_interno', nowMs: number): Promise<void> {
    this.run(LAB_SQL.finish(id, status, nowMs, null));
  }

  async abandon(id: string, reason: string, nowMs: number): Promise<void> {
    this.run(LAB_SQL.finish(id, 'no_terminada', nowMs, reason));
  }

  async ruleResults(id: string): Promise<RuleResultRow[]> {
    return this.all<Parameters<typeof ruleResultOf>[0]>(LAB_SQL.results(id)).map(ruleResultOf);
  }

  async passedLabs(student: string): Promise<string[]> {
    return labsOf(this.all<{ lab: string }>(LAB_SQL.passedLabs(student)));
  }

  async unfinished(nowMs: number, staleMs: number): Promise<string[]> {
    return idsOf(this.all<{ id: string }>(LAB_SQL.unfinished(nowMs, staleMs)));
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
