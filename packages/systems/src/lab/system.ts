import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { IncomingRestRequest, RestHandler } from '@code-cluster/shared';
import {
  type GradingResult,
  LAB_ID_PATTERN,
  type LabSession,
  type LabSummary,
  MAX_SUBMISSION_BYTES,
  SESSION_ID_PATTERN,
  STUDENT_PATTERN,
  StartSessionRequestSchema,
  SUBMISSION_ID_PATTERN,
  type Submission,
  SubmitRequestSchema,
} from '@code-cluster/shared/lab';
import type { z } from 'zod';
import { badRequest, HttpProblem, jsonResponse, notFound, unprocessable } from '../http/problem.js';
import { createRouter } from '../http/router.js';
import { dataDir } from '../storage/index.js';
import { findLab, LABS } from './catalog.js';
import { GradingOverrun, gradeRules, type LabDefinition, seconds } from './grading.js';
import { embeddedRoster, remoteRoster, type StudentRoster } from './roster.js';
import { GradingSandbox } from './sandbox.js';
import { LabStore, type SessionRow, type SubmissionRow } from './store.js';

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
  /** The roster itself, instead of one built from the settings above. */
  roster?: StudentRoster;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface LabSystem {
  handler: RestHandler;
  store: LabStore;
  /** Resolves when every grading queued so far has finished. */
  idle(): Promise<void>;
  close(): void;
}

const VERSION = '0.1.0';
/** A grading claimed longer ago than this belongs to a process that died; another one takes it over. */
const STALE_CLAIM_MS = 60_000;
const DEFAULT_GRADING_BUDGET_MS = 10_000;
/**
 * Graders a submission may take down (the process died mid-grading, so it never gave its turn back)
 * before it is marked as not finished instead of being graded again on every restart.
 */
const MAX_ATTEMPTS = 3;

const iso = (ms: number) => new Date(ms).toISOString();
const newId = (prefix: string) => `${prefix}-${randomBytes(6).toString('hex')}`;

export function defaultDatabaseFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'lab.db');
}

/** The lab suite's REST API (see packages/shared/src/lab/schemas.ts), grading submissions in the background. */
export function createLabSystem(options: LabSystemOptions = {}): LabSystem {
  const file = options.file ?? defaultDatabaseFile();
  const store = new LabStore(file);
  const roster =
    options.roster ??
    (options.academyApiUrl
      ? remoteRoster({ baseUrl: options.academyApiUrl, token: options.academyApiToken })
      : // The academy system keeps `academy.db` in the same data dir (see its defaultDatabaseFile).
        embeddedRoster(join(dirname(file), 'academy.db')));
  const now = options.now ?? Date.now;
  const stepDelayMs = options.stepDelayMs ?? 0;
  const budgetMs = options.gradingBudgetMs ?? DEFAULT_GRADING_BUDGET_MS;
  const sandbox = new GradingSandbox();
  let closed = false;
  let grading: string | undefined;
  let queue: Promise<void> = Promise.resolve();

  const lab = (id: string): LabDefinition => {
    const found = LAB_ID_PATTERN.test(id) ? findLab(id) : undefined;
    if (!found) {
      throw notFound(
        `No existe el laboratorio ${JSON.stringify(id.slice(0, 80))}. Laboratorios disponibles: ` +
          `${LABS.map((l) => l.id).join(', ')}.`,
        { lab: id },
      );
    }
    return found;
  };
  const session = (id: string): SessionRow => {
    const found = SESSION_ID_PATTERN.test(id) ? store.session(id) : undefined;
    if (!found) {
      throw notFound(
        `No existe la sesión ${JSON.stringify(id.slice(0, 80))}: usa el sesion_id que devolvió ` +
          'iniciar_laboratorio (ses- y 12 dígitos hexadecimales).',
        { session: id },
      );
    }
    return found;
  };
  const submission = (id: string): SubmissionRow => {
    const found = SUBMISSION_ID_PATTERN.test(id) ? store.submission(id) : undefined;
    if (!found) {
      throw notFound(
        `No existe la entrega ${JSON.stringify(id.slice(0, 80))}: usa el entrega_id que devolvió ` +
          'enviar_entrega (ent- y 12 dígitos hexadecimales).',
        { submission: id },
      );
    }
    return found;
  };

  /** Grades one submission rule by rule, storing each rule as it is done; one grading at a time. */
  const grade = async (id: string): Promise<void> => {
    if (closed || !store.claim(id, now(), STALE_CLAIM_MS)) return;
    const row = store.submission(id)!;
    if (row.attempts > MAX_ATTEMPTS) {
      store.abandon(
        id,
        `La corrección de esta entrega se interrumpió ${row.attempts - 1} veces sin terminar (el corrector ` +
          'se detuvo a mitad de ella) y no se vuelve a intentar. Revisa que no contenga esquemas, patrones o ' +
          'mensajes desmesurados y envíala de nuevo con enviar_entrega.',
        now(),
      );
      return;
    }
    grading = id;
    const budget = sandbox.budget(budgetMs);
    try {
      let position = 0;
      for await (const result of gradeRules(lab(row.lab), store.content(id) ?? '', budget)) {
        await pause(stepDelayMs);
        budget.extend(stepDelayMs);
        if (closed) return;
        if (budget.remainingMs() <= 0) {
          throw new GradingOverrun(
            `La corrección no terminó dentro de los ${seconds(budgetMs)} que tiene y se detuvo tras ` +
              `${position} de ${row.rules_total} reglas. Reduce la entrega a la sesión que pide el enunciado ` +
              'y vuelve a enviarla.',
          );
        }
        store.addRuleResult(id, position++, result);
      }
      store.finish(id, 'evaluada', now());
    } catch (error) {
      // Closing hands the grading back (see close); nothing of it is recorded.
      if (closed) return;
      if (error instanceof GradingOverrun) store.abandon(id, error.message, now());
      else {
        options.onError?.(error);
        store.finish(id, 'fallo_interno', now());
      }
    } finally {
      grading = undefined;
    }
  };
  const schedule = (id: string) => {
    queue = queue.then(() => grade(id));
  };
  // Gradings a previous process left unfinished (it stopped, or died mid-way) are picked up again.
  for (const id of store.unfinished(now(), STALE_CLAIM_MS)) schedule(id);

  const handler = createRouter(
    [
      {
        method: 'GET',
        pattern: '/healthz',
        handle: () => ({ status: 'ok', system: 'lab', version: VERSION }),
      },
      { method: 'GET', pattern: '/v1/labs', handle: () => ({ labs: LABS.map(summary) }) },
      {
        method: 'GET',
        pattern: '/v1/labs/:lab',
        handle: ({ params }) => {
          const found = lab(params.lab!);
          return { ...summary(found), hints: [...found.hints] };
        },
      },
      {
        method: 'GET',
        pattern: '/v1/labs/:lab/statement',
        handle: ({ params }) => {
          const found = lab(params.lab!);
          return { lab: found.id, title: found.title, markdown: found.statement };
        },
      },
      {
        method: 'POST',
        pattern: '/v1/sessions',
        handle: async ({ request }) => {
          const body = parseBody(request, StartSessionRequestSchema);
          const found = lab(body.lab);
          const answer = await roster.check(body.student, request.signal);
          if (answer.kind === 'desconocido') {
            throw notFound(
              `No existe el estudiante ${JSON.stringify(body.student)} en la academia. Los ids de estudiante ` +
                'son los de la academia: palabras en minúsculas unidas por guiones (p. ej. ana-garcia). Para ' +
                'ver los válidos, en academy-mcp: consulta_sql {"sql": "SELECT id, nombre FROM estudiantes"}.',
              { student: body.student },
            );
          }
          const row = { id: newId('ses'), lab: found.id, student: body.student, started_ms: now() };
          store.insertSession(row);
          return jsonResponse(201, {
            ...sessionDto({ ...row, submissions: 0 }),
            student_verified: answer.kind === 'conocido',
            student_note:
              answer.kind === 'conocido'
                ? `Estudiante comprobado en ${answer.source}.`
                : `No se pudo comprobar el estudiante en la academia (${answer.reason}); la sesión se abrió ` +
                  'igualmente, sin verificar.',
          });
        },
      },
      {
        method: 'GET',
        pattern: '/v1/students/:student/labs',
        handle: ({ params }) => {
          const student = params.student!;
          if (!STUDENT_PATTERN.test(student)) {
            throw badRequest(
              `Id de estudiante inválido ${JSON.stringify(student.slice(0, 80))}: palabras en minúsculas unidas ` +
                'por guiones (p. ej. ana-garcia).',
              { student: student.slice(0, 80) },
            );
          }
          return { student, passed: store.passedLabs(student) };
        },
      },
      {
        method: 'GET',
        pattern: '/v1/sessions/:session',
        handle: ({ params }) => sessionDto(session(params.session!)),
      },
      {
        method: 'POST',
        pattern: '/v1/sessions/:session/submissions',
        handle: ({ params, request }) => {
          const owner = session(params.session!);
          const size = request.body === undefined ? 0 : Buffer.byteLength(request.body, 'utf8');
          const { content } = parseBody(request, SubmitRequestSchema);
          const bytes = Buffer.byteLength(content, 'utf8');
          if (bytes > MAX_SUBMISSION_BYTES) {
            throw new HttpProblem(
              413,
              'Content Too Large',
              `La entrega ocupa ${bytes} bytes y el límite es ${MAX_SUBMISSION_BYTES} bytes (64 KiB): ` +
                'entrega solo la sesión que pide el enunciado, sin registros ni mensajes repetidos.',
              { limit_bytes: MAX_SUBMISSION_BYTES, size_bytes: bytes, body_bytes: size },
            );
          }
          if (content.trim() === '')
            throw unprocessable('La entrega está vacía: pega el contenido que pide el enunciado.');
          const id = newId('ent');
          store.insertSubmission({
            id,
            sessionId: owner.id,
            content,
            sizeBytes: bytes,
            rulesTotal: lab(owner.lab).rules.length,
            nowMs: now(),
          });
          schedule(id);
          return jsonResponse(202, submissionDto(store.submission(id)!));
        },
      },
      {
        method: 'GET',
        pattern: '/v1/submissions/:submission',
        handle: ({ params }) => submissionDto(submission(params.submission!)),
      },
      {
        method: 'GET',
        pattern: '/v1/submissions/:submission/result',
        handle: ({ params }) => {
          const row = submission(params.submission!);
          const rules = store.ruleResults(row.id);
          const result: GradingResult = {
            submission: submissionDto(row),
            passed:
              row.status === 'evaluada'
                ? rules.every((r) => r.outcome !== 'fallida')
                : row.status === 'no_terminada'
                  ? false
                  : null,
            rules,
          };
          return result;
        },
      },
    ],
    options.onError,
  );

  return {
    handler,
    store,
    idle: () => queue,
    close: () => {
      closed = true;
      // A grading cut short is handed back, not left claimed until it goes stale.
      if (grading) store.release(grading);
      sandbox.close();
      void roster.close?.();
      store.close();
    },
  };
}

function summary(lab: LabDefinition): LabSummary {
  return {
    id: lab.id,
    title: lab.title,
    summary: lab.summary,
    format: lab.format,
    rules: lab.rules.map((r) => ({ id: r.id, title: r.title, description: r.description })),
  };
}

function sessionDto(row: SessionRow): LabSession {
  return {
    id: row.id,
    lab: row.lab,
    student: row.student,
    started_at: iso(row.started_ms),
    submissions: row.submissions,
  };
}

function submissionDto(row: SubmissionRow): Submission {
  return {
    id: row.id,
    session_id: row.session_id,
    lab: row.lab,
    student: row.student,
    submitted_at: iso(row.submitted_ms),
    size_bytes: row.size_bytes,
    status: row.status,
    rules_total: row.rules_total,
    rules_done: row.rules_done,
    finished_at: row.finished_ms === null ? null : iso(row.finished_ms),
    reason: row.reason,
  };
}

function parseBody<T extends z.ZodType>(request: IncomingRestRequest, schema: T): z.output<T> {
  let value: unknown;
  try {
    value = request.body === undefined ? undefined : JSON.parse(request.body);
  } catch {
    throw badRequest('El cuerpo no es JSON válido.');
  }
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || 'cuerpo';
  if (issue.code === 'too_big' && field === 'content') {
    throw new HttpProblem(
      413,
      'Content Too Large',
      `La entrega tiene más de ${MAX_SUBMISSION_BYTES} caracteres y el límite es ${MAX_SUBMISSION_BYTES} bytes (64 KiB).`,
      { limit_bytes: MAX_SUBMISSION_BYTES },
    );
  }
  throw unprocessable(`Campo '${field}' inválido: ${issue.message}.`, { field });
}

/** Yields to the event loop between rules even without a delay, so requests are served meanwhile. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}
