import type { Finding, RuleOutcome, SubmissionStatus } from '@code-cluster/shared/lab';

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

export interface NewSubmission {
  id: string;
  sessionId: string;
  content: string;
  sizeBytes: number;
  rulesTotal: number;
  nowMs: number;
}

/**
 * The lab suite's storage, whatever holds it: a SQLite file (sqlite-store.ts) or a PostgreSQL schema shared
 * by replicas (postgres-store.ts). Both run the statements of `LAB_SQL` below; the use cases (sessions.ts,
 * grader.ts) only see this interface.
 */
export interface LabStore {
  /** Where the store lives, for the operator's log (a PostgreSQL URL without its password). */
  readonly where: string;
  insertSession(row: Omit<SessionRow, 'submissions'>): Promise<void>;
  session(id: string): Promise<SessionRow | undefined>;
  insertSubmission(row: NewSubmission): Promise<void>;
  submission(id: string): Promise<SubmissionRow | undefined>;
  content(id: string): Promise<string | undefined>;
  /**
   * Takes a submission for grading: only one grader (of any process or replica) wins it. A claim older
   * than `staleMs` belongs to a grader that died mid-way; it is taken over and its partial results dropped.
   * Every claim counts as an attempt. The check and the write are one conditional UPDATE, which the engine
   * runs atomically (on PostgreSQL a racing claim waits for the row and re-checks it).
   */
  claim(id: string, nowMs: number, staleMs: number): Promise<boolean>;
  /** Stores one graded rule and advances the submission's progress, together. */
  addRuleResult(id: string, position: number, result: RuleResultRow): Promise<void>;
  /**
   * Gives a claimed submission back (its grader is stopping), so the next process grades it from scratch;
   * one no longer being graded (finished meanwhile) is left as it is.
   */
  release(id: string): Promise<void>;
  finish(id: string, status: 'evaluada' | 'fallo_interno', nowMs: number): Promise<void>;
  /** Ends a grading that did not finish: it is not graded again. */
  abandon(id: string, reason: string, nowMs: number): Promise<void>;
  ruleResults(id: string): Promise<RuleResultRow[]>;
  /** The labs a student has passed at least once (a graded submission without a failed rule), any session. */
  passedLabs(student: string): Promise<string[]>;
  /** Submissions left ungraded (pending, or claimed by a grader that is gone), oldest first. */
  unfinished(nowMs: number, staleMs: number): Promise<string[]>;
  close(): Promise<void>;
}

/** One statement of the store: its SQL (`$1`… parameters, in order) and the values to bind. */
export interface LabStatement {
  text: string;
  params: (string | number | null)[];
}

const statement = (text: string, params: LabStatement['params'] = []): LabStatement => ({ text, params });

const SUBMISSION_COLUMNS = `s.id, s.session_id, se.lab, se.student, s.size_bytes, s.submitted_ms, s.status,
  s.rules_total, s.rules_done, s.claimed_ms, s.finished_ms, s.attempts, s.reason`;

/** Every statement of the lab store, the same on both engines. */
export const LAB_SQL = {
  insertSession: (row: Omit<SessionRow, 'submissions'>) =>
    statement('INSERT INTO session (id, lab, student, started_ms) VALUES ($1, $2, $3, $4)', [
      row.id,
      row.lab,
      row.student,
      row.started_ms,
    ]),
  session: (id: string) =>
    statement(
      `SELECT id, lab, student, started_ms,
              (SELECT count(*) FROM submission s WHERE s.session_id = session.id) AS submissions
       FROM session WHERE id = $1`,
      [id],
    ),
  insertSubmission: (row: NewSubmission) =>
    statement(
      `INSERT INTO submission (id, session_id, content, size_bytes, submitted_ms, status, rules_total)
       VALUES ($1, $2, $3, $4, $5, 'pendiente', $6)`,
      [row.id, row.sessionId, row.content, row.sizeBytes, row.nowMs, row.rulesTotal],
    ),
  submission: (id: string) =>
    statement(
      `SELECT ${SUBMISSION_COLUMNS} FROM submission s JOIN session se ON se.id = s.session_id WHERE s.id = $1`,
      [id],
    ),
  content: (id: string) => statement('SELECT content FROM submission WHERE id = $1', [id]),
  claim: (id: string, nowMs: number, staleMs: number) =>
    statement(
      `UPDATE submission SET status = 'evaluando', claimed_ms = $1, rules_done = 0, attempts = attempts + 1
       WHERE id = $2 AND (status = 'pendiente' OR (status = 'evaluando' AND claimed_ms < $3))`,
      [nowMs, id, nowMs - staleMs],
    ),
  clearResults: (id: string) => statement('DELETE FROM rule_result WHERE submission_id = $1', [id]),
  insertResult: (id: string, position: number, result: RuleResultRow) =>
    statement(
      `INSERT INTO rule_result (submission_id, position, rule, title, outcome, findings)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, position, result.rule, result.title, result.outcome, JSON.stringify(result.findings)],
    ),
  release: (id: string) =>
    statement(
      `UPDATE submission SET status = 'pendiente', claimed_ms = NULL, rules_done = 0, attempts = attempts - 1
       WHERE id = $1 AND status = 'evaluando'`,
      [id],
    ),
  progress: (id: string, done: number) =>
    statement('UPDATE submission SET rules_done = $1 WHERE id = $2', [done, id]),
  finish: (id: string, status: SubmissionStatus, nowMs: number, reason: string | null) =>
    statement('UPDATE submission SET status = $1, finished_ms = $2, reason = $3 WHERE id = $4', [
      status,
      nowMs,
      reason,
      id,
    ]),
  results: (id: string) =>
    statement(
      'SELECT rule, title, outcome, findings FROM rule_result WHERE submission_id = $1 ORDER BY position',
      [id],
    ),
  passedLabs: (student: string) =>
    statement(
      `SELECT DISTINCT se.lab FROM submission s JOIN session se ON se.id = s.session_id
       WHERE se.student = $1 AND s.status = 'evaluada'
         AND NOT EXISTS (SELECT 1 FROM rule_result r WHERE r.submission_id = s.id AND r.outcome = 'fallida')
       ORDER BY se.lab`,
      [student],
    ),
  unfinished: (nowMs: number, staleMs: number) =>
    statement(
      `SELECT id FROM submission
       WHERE status = 'pendiente' OR (status = 'evaluando' AND claimed_ms < $1)
       ORDER BY submitted_ms`,
      [nowMs - staleMs],
    ),
} satisfies Record<string, (...args: never[]) => LabStatement>;

/** A stored rule result as the API shows it: its findings are kept as JSON text. */
export function ruleResultOf(row: {
  rule: string;
  title: string;
  outcome: RuleOutcome;
  findings: string;
}): RuleResultRow {
  return { ...row, findings: JSON.parse(row.findings) as Finding[] };
}

/** The labs of `passedLabs`' rows. */
export const labsOf = (rows: { lab: string }[]): string[] => rows.map((row) => row.lab);
/** The ids of `unfinished`' rows. */
export const idsOf = (rows: { id: string }[]): string[] => rows.map((row) => row.id);
