import { randomBytes } from 'node:crypto';
import {
  type GradingResult,
  type LabSession,
  MAX_SUBMISSION_BYTES,
  SESSION_ID_PATTERN,
  type StartSessionRequest,
  type StudentLabs,
  SUBMISSION_ID_PATTERN,
  type Submission,
} from '@code-cluster/shared/lab';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { knownLab } from './catalog.js';
import type { Grader } from './grader.js';
import type { StudentRoster } from './roster.js';
import type { LabStore, SessionRow, SubmissionRow } from './store.js';

/** A session as it opens: whether the academy's roster could vouch for the student. */
export type OpenedSession = LabSession & { student_verified: boolean; student_note: string };

const newId = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

/** A student's work on a lab: sessions, the submissions sent in them, and how their grading stands. */
export class Sessions {
  constructor(
    private readonly store: LabStore,
    private readonly roster: StudentRoster,
    private readonly grader: Grader,
    private readonly now: () => number,
  ) {}

  async start({ lab, student }: StartSessionRequest, signal?: AbortSignal): Promise<OpenedSession> {
    const found = knownLab(lab);
    const answer = await this.roster.check(student, signal);
    if (answer.kind === 'desconocido') {
      throw refuse.notFound(
        `No existe el estudiante ${JSON.stringify(student)} en la academia. Los ids de estudiante ` +
          'son los de la academia: palabras en minúsculas unidas por guiones (p. ej. ana-garcia). Para ' +
          'ver los válidos, en academy-mcp: consulta_sql {"sql": "SELECT id, nombre FROM estudiantes"}.',
        { student },
      );
    }
    const row = { id: newId('ses'), lab: found.id, student, started_ms: this.now() };
    await this.store.insertSession(row);
    return {
      ...sessionView({ ...row, submissions: 0 }),
      student_verified: answer.kind === 'conocido',
      student_note:
        answer.kind === 'conocido'
          ? `Estudiante comprobado en ${answer.source}.`
          : `No se pudo comprobar el estudiante en la academia (${answer.reason}); la sesión se abrió ` +
            'igualmente, sin verificar.',
    };
  }

  /** The labs a student has passed, in any session: what their next labs depend on. */
  async passedLabs(student: string): Promise<StudentLabs> {
    return { student, passed: await this.store.passedLabs(student) };
  }

  async get(id: string): Promise<LabSession> {
    return sessionView(await this.session(id));
  }

  /** Stores a submission and queues its grading. */
  async submit(sessionId: string, content: string): Promise<Submission> {
    const owner = await this.session(sessionId);
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > MAX_SUBMISSION_BYTES) {
      throw refuse.tooLarge(
        `La entrega ocupa ${bytes} bytes y el límite es ${MAX_SUBMISSION_BYTES} bytes (64 KiB): ` +
          'entrega solo la sesión que pide el enunciado, sin registros ni mensajes repetidos.',
        { limit_bytes: MAX_SUBMISSION_BYTES, size_bytes: bytes },
      );
    }
    if (content.trim() === '')
      throw refuse.unprocessable('La entrega está vacía: pega el contenido que pide el enunciado.');
    // No transcript or JSON definition holds a raw NUL (JSON escapes it), and PostgreSQL text cannot.
    const nul = content.indexOf('\u0000');
    if (nul >= 0) {
      const line = content.slice(0, nul).split('\n').length;
      throw refuse.unprocessable(
        `La entrega contiene el carácter NUL (U+0000) en la línea ${line}; JSON lo escribe escapado ` +
          '(\\u0000), nunca tal cual: quítalo y vuelve a enviarla.',
        { line },
      );
    }
    const id = newId('ent');
    await this.store.insertSubmission({
      id,
      sessionId: owner.id,
      content,
      sizeBytes: bytes,
      rulesTotal: knownLab(owner.lab).rules.length,
      nowMs: this.now(),
    });
    // Read back before the grader is told: on PostgreSQL its claim could land first, and the 202
    // answers what was stored, not a race with the grading.
    const stored = submissionView((await this.store.submission(id))!);
    this.grader.schedule(id);
    return stored;
  }

  async submission(id: string): Promise<Submission> {
    return submissionView(await this.submissionRow(id));
  }

  /** The grading as it stands: the rules graded so far, and `passed` once it is over. */
  async result(id: string): Promise<GradingResult> {
    const row = await this.submissionRow(id);
    const rules = await this.store.ruleResults(row.id);
    const passed =
      row.status === 'evaluada'
        ? rules.every((r) => r.outcome !== 'fallida')
        : row.status === 'no_terminada'
          ? false
          : null;
    return { submission: submissionView(row), passed, rules };
  }

  private async session(id: string): Promise<SessionRow> {
    const found = SESSION_ID_PATTERN.test(id) ? await this.store.session(id) : undefined;
    if (found) return found;
    throw refuse.notFound(
      `No existe la sesión ${JSON.stringify(id.slice(0, 80))}: usa el sesion_id que devolvió ` +
        'iniciar_laboratorio (ses- y 12 dígitos hexadecimales).',
      { session: id },
    );
  }

  private async submissionRow(id: string): Promise<SubmissionRow> {
    const found = SUBMISSION_ID_PATTERN.test(id) ? await this.store.submission(id) : undefined;
    if (found) return found;
    throw refuse.notFound(
      `No existe la entrega ${JSON.stringify(id.slice(0, 80))}: usa el entrega_id que devolvió ` +
        'enviar_entrega (ent- y 12 dígitos hexadecimales).',
      { submission: id },
    );
  }
}

function sessionView(row: SessionRow): LabSession {
  return {
    id: row.id,
    lab: row.lab,
    student: row.student,
    started_at: isoUtc(row.started_ms),
    submissions: row.submissions,
  };
}

function submissionView(row: SubmissionRow): Submission {
  return {
    id: row.id,
    session_id: row.session_id,
    lab: row.lab,
    student: row.student,
    submitted_at: isoUtc(row.submitted_ms),
    size_bytes: row.size_bytes,
    status: row.status,
    rules_total: row.rules_total,
    rules_done: row.rules_done,
    finished_at: row.finished_ms === null ? null : isoUtc(row.finished_ms),
    reason: row.reason,
  };
}
