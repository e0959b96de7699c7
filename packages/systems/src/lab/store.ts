import type { Finding, RuleOutcome, SubmissionStatus } from '@code-cluster/shared/lab';
import { openDatabase, type SqlDatabase } from '../storage/index.js';

export interface SessionRow {
  id: string;
  lab: string;
  student: string;
  started_ms: number;
  submissions: number;
}

export interface SubmissionRow {
  id: string;
  session_id: string;
  lab: string;
  student: string;
  size_bytes: number;
  submitted_ms: number;
  status: SubmissionStatus;
  rules_total: number;
  rules_done: number;
  claimed_ms: number | null;
  finished_ms: number | null;
  /** How many graders took it; one that stopped cleanly gave its turn back. */
  attempts: number;
  /** Why the grading did not finish (status `no_terminada`), in Spanish; null otherwise. */
  reason: string | null;
}

export interface RuleResultRow {
  rule: string;
  title: string;
  outcome: RuleOutcome;
  findings: Finding[];
}

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

const SUBMISSION_COLUMNS = `s.id, s.session_id, se.lab, se.student, s.size_bytes, s.submitted_ms, s.status,
  s.rules_total, s.rules_done, s.claimed_ms, s.finished_ms, s.attempts, s.reason`;

/** The lab suite's storage: every SQL statement of the system lives here. */
export class LabStore {
  private readonly db: SqlDatabase;
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(file: string) {
    this.db = openDatabase(file, { migrations: MIGRATIONS });
    this.statements = prepareStatements(this.db);
  }

  get file(): string {
    return this.db.file;
  }

  insertSession(row: Omit<SessionRow, 'submissions'>): void {
    this.statements.insertSession.run(row.id, row.lab, row.student, row.started_ms);
  }

  session(id: string): SessionRow | undefined {
    return this.statements.session.get<SessionRow>(id);
  }

  insertSubmission(row: {
    id: string;
    sessionId: string;
    content: string;
    sizeBytes: number;
    rulesTotal: number;
    nowMs: number;
  }): void {
    this.statements.insertSubmission.run(
      row.id,
      row.sessionId,
      row.content,
      row.sizeBytes,
      row.nowMs,
      row.rulesTotal,
    );
  }

  submission(id: string): SubmissionRow | undefined {
    return this.statements.submission.get<SubmissionRow>(id);
  }

  content(id: string): string | undefined {
    return this.statements.content.get<{ content: string }>(id)?.content;
  }

  /**
   * Takes a submission for grading: only one grader (one process) wins it. A claim older than `staleMs`
   * belongs to a grader that died mid-way; it is taken over and its partial results dropped. Every claim
   * counts as an attempt.
   */
  claim(id: string, nowMs: number, staleMs: number): boolean {
    return this.db.transaction(() => {
      const claimed = this.statements.claim.run(nowMs, id, nowMs - staleMs).changes === 1;
      if (claimed) this.statements.clearResults.run(id);
      return claimed;
    });
  }

  /** Stores one graded rule and advances the submission's progress, together. */
  addRuleResult(id: string, position: number, result: RuleResultRow): void {
    this.db.transaction(() => {
      this.statements.insertResult.run(
        id,
        position,
        result.rule,
        result.title,
        result.outcome,
        JSON.stringify(result.findings),
      );
      this.statements.progress.run(position + 1, id);
    });
  }

  /** Gives a claimed submission back (its grader is stopping), so the next process grades it from scratch. */
  release(id: string): void {
    this.db.transaction(() => {
      this.statements.clearResults.run(id);
      this.statements.release.run(id);
    });
  }

  finish(id: string, status: 'evaluada' | 'fallo_interno', nowMs: number): void {
    this.statements.finish.run(status, nowMs, null, id);
  }

  /** Ends a grading that did not finish: it is not graded again. */
  abandon(id: string, reason: string, nowMs: number): void {
    this.statements.finish.run('no_terminada', nowMs, reason, id);
  }

  ruleResults(id: string): RuleResultRow[] {
    return this.statements.results
      .all<{ rule: string; title: string; outcome: RuleOutcome; findings: string }>(id)
      .map((row) => ({ ...row, findings: JSON.parse(row.findings) as Finding[] }));
  }

  /** The labs a student has passed at least once (a graded submission without a failed rule), any session. */
  passedLabs(student: string): string[] {
    return this.statements.passedLabs.all<{ lab: string }>(student).map((row) => row.lab);
  }

  /** Submissions left ungraded (pending, or claimed by a grader that is gone), oldest first. */
  unfinished(nowMs: number, staleMs: number): string[] {
    return this.statements.unfinished.all<{ id: string }>(nowMs - staleMs).map((row) => row.id);
  }

  close(): void {
    this.db.close();
  }
}

function prepareStatements(db: SqlDatabase) {
  return {
    insertSession: db.prepare('INSERT INTO session (id, lab, student, started_ms) VALUES (?, ?, ?, ?)'),
    session: db.prepare(
      `SELECT id, lab, student, started_ms,
              (SELECT count(*) FROM submission s WHERE s.session_id = session.id) AS submissions
       FROM session WHERE id = ?`,
    ),
    insertSubmission: db.prepare(
      `INSERT INTO submission (id, session_id, content, size_bytes, submitted_ms, status, rules_total)
       VALUES (?, ?, ?, ?, ?, 'pendiente', ?)`,
    ),
    submission: db.prepare(
      `SELECT ${SUBMISSION_COLUMNS} FROM submission s JOIN session se ON se.id = s.session_id WHERE s.id = ?`,
    ),
    content: db.prepare('SELECT content FROM submission WHERE id = ?'),
    claim: db.prepare(
      `UPDATE submission SET status = 'evaluando', claimed_ms = ?, rules_done = 0, attempts = attempts + 1
       WHERE id = ? AND (status = 'pendiente' OR (status = 'evaluando' AND claimed_ms < ?))`,
    ),
    clearResults: db.prepare('DELETE FROM rule_result WHERE submission_id = ?'),
    insertResult: db.prepare(
      `INSERT INTO rule_result (submission_id, position, rule, title, outcome, findings)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    release: db.prepare(
      `UPDATE submission SET status = 'pendiente', claimed_ms = NULL, rules_done = 0, attempts = attempts - 1
       WHERE id = ? AND status = 'evaluando'`,
    ),
    progress: db.prepare('UPDATE submission SET rules_done = ? WHERE id = ?'),
    finish: db.prepare('UPDATE submission SET status = ?, finished_ms = ?, reason = ? WHERE id = ?'),
    results: db.prepare(
      'SELECT rule, title, outcome, findings FROM rule_result WHERE submission_id = ? ORDER BY position',
    ),
    passedLabs: db.prepare(
      `SELECT DISTINCT se.lab FROM submission s JOIN session se ON se.id = s.session_id
       WHERE se.student = ? AND s.status = 'evaluada'
         AND NOT EXISTS (SELECT 1 FROM rule_result r WHERE r.submission_id = s.id AND r.outcome = 'fallida')
       ORDER BY se.lab`,
    ),
    unfinished: db.prepare(
      `SELECT id FROM submission
       WHERE status = 'pendiente' OR (status = 'evaluando' AND claimed_ms < ?)
       ORDER BY submitted_ms`,
    ),
  };
}
