import { join } from 'node:path';
import type { IncomingRestRequest, RestHandler } from '@code-cluster/shared';
import {
  type Course,
  type CourseProgress,
  type CourseSummary,
  type Lesson,
  type Quiz,
  type QuizResult,
  RecordProgressRequestSchema,
  type RecordProgressResult,
  SQL_BYTE_LIMIT,
  SQL_ROW_LIMIT,
  SQL_TIMEOUT_MS,
  SqlQueryRequestSchema,
  type SqlResult,
  STUDENT_ID_RULE,
  type StudentProgress,
  SubmitQuizRequestSchema,
  type Table,
} from '@code-cluster/shared/academy';
import { z } from 'zod';
import { badRequest, HttpProblem, jsonResponse, notFound, unprocessable } from '../http/problem.js';
import { createRouter, parseQuery } from '../http/router.js';
import { dataDir } from '../storage/index.js';
import { SqlRefusal, screenQuery } from './sql-guard.js';
import { ReadOnlySqlRunner } from './sql-runner.js';
import {
  type AcademyStore,
  type CourseRow,
  type LessonRow,
  openAcademyStore,
  type StudentRow,
  TABLE_DESCRIPTIONS,
} from './store.js';

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

const VERSION = '0.1.0';
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function defaultDatabaseFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'academy.db');
}

/** The academy platform's REST API (see packages/shared/src/academy/schemas.ts for the resources). */
export function createAcademySystem(options: AcademySystemOptions = {}): AcademySystem {
  const file = options.file ?? defaultDatabaseFile();
  if (file === ':memory:') {
    // The analytics child opens the file on its own, read-only: an in-memory database has no file to open.
    throw new Error('the academy system needs a database file (the analytics queries open it read-only)');
  }
  const store = openAcademyStore(file);
  const now = options.now ?? Date.now;
  const byteLimit = options.sqlByteLimit ?? SQL_BYTE_LIMIT;
  const sql = new ReadOnlySqlRunner({
    file,
    rowLimit: options.sqlRowLimit ?? SQL_ROW_LIMIT,
    byteLimit,
    timeoutMs: options.sqlTimeoutMs ?? SQL_TIMEOUT_MS,
    ...(options.sqlPoolSize ? { poolSize: options.sqlPoolSize } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });

  const courseSummary = (row: CourseRow): CourseSummary => ({
    id: row.id,
    title: row.titulo,
    description: row.descripcion,
    level: row.nivel,
    hours: row.horas,
    tags: row.etiquetas ? row.etiquetas.split(',') : [],
    lesson_count: row.lecciones,
    student_count: row.estudiantes,
  });
  const lessonSummary = (row: LessonRow) => ({
    id: row.id,
    course: row.curso_id,
    position: row.orden,
    title: row.titulo,
    minutes: row.minutos,
    ...(row.quiz_id ? { quiz: row.quiz_id } : {}),
  });
  const lessonDto = (row: LessonRow): Lesson => ({
    ...lessonSummary(row),
    course_title: row.curso_titulo,
    markdown: row.contenido_md,
  });

  const course = (id: string): CourseRow => {
    const row = store.getCourse(id);
    if (!row) {
      const ids = store.searchCourses().map((c) => c.id);
      throw notFound(`No existe el curso '${id}'. Cursos disponibles: ${ids.join(', ')}.`, { course: id });
    }
    return row;
  };
  const lesson = (id: string): LessonRow => {
    const row = store.getLesson(id);
    if (!row) {
      throw notFound(
        `No existe la lección '${id}'. buscar_cursos y el recurso academia://cursos/{curso}/lecciones/{leccion} ` +
          'muestran las lecciones de cada curso.',
        { lesson: id },
      );
    }
    return row;
  };
  const student = (id: string): StudentRow => {
    const row = store.getStudent(id);
    if (!row) {
      throw notFound(
        `No existe el estudiante '${id}'. Los identificadores de estudiante son ${STUDENT_ID_RULE}.`,
        { student: id },
      );
    }
    return row;
  };
  const courseProgress = (
    studentId: string,
    courseId: string,
    title: string,
    enrolledAt: string,
  ): CourseProgress => {
    const lessons = store.lessonsOf(courseId);
    const done = new Set(store.completedLessons(studentId, courseId).map((r) => r.leccion_id));
    const next = lessons.find((l) => !done.has(l.id));
    return {
      course: courseId,
      title,
      enrolled_at: enrolledAt,
      completed: done.size,
      total: lessons.length,
      percent: lessons.length === 0 ? 0 : Math.round((done.size / lessons.length) * 1000) / 10,
      completed_lessons: lessons.filter((l) => done.has(l.id)).map((l) => l.id),
      ...(next ? { next_lesson: next.id } : {}),
      attempts: store.attempts(studentId, courseId).map((a) => ({
        attempt_id: a.id,
        quiz: a.quiz_id,
        correct: a.aciertos,
        total: a.total,
        passed: a.aprobado === 1,
        submitted_at: a.enviado_en,
      })),
    };
  };
  const enrolledIn = (studentId: string, courseId: string) => {
    const enrollment = store.enrollments(studentId).find((e) => e.curso_id === courseId);
    if (!enrollment) {
      const courses = store.enrollments(studentId).map((e) => e.curso_id);
      throw new HttpProblem(
        409,
        'Conflict',
        `El estudiante ${studentId} no está matriculado en el curso '${courseId}' ` +
          `(sus cursos: ${courses.join(', ') || 'ninguno'}); no se puede registrar nada de ese curso.`,
        { student: studentId, course: courseId },
      );
    }
    return enrollment;
  };

  const recordProgress = (studentId: string, request: IncomingRestRequest): RecordProgressResult => {
    const body = parseBody(request, RecordProgressRequestSchema);
    const who = student(studentId);
    const what = lesson(body.lesson);
    return store.transaction(() => {
      const enrollment = enrolledIn(who.id, what.curso_id);
      const before = store.isCompleted(who.id, what.id);
      const at = before?.completado_en ?? iso(now());
      if (!before) store.recordProgress(who.id, what.id, at);
      return {
        student: who.id,
        lesson: what.id,
        lesson_title: what.titulo,
        course: what.curso_id,
        completed_at: at,
        already_completed: before !== undefined,
        progress: courseProgress(who.id, what.curso_id, enrollment.titulo, enrollment.matriculado_en),
      };
    });
  };

  const submitQuiz = (quizId: string, request: IncomingRestRequest) => {
    const body = parseBody(request, SubmitQuizRequestSchema);
    const quiz = store.getQuiz(quizId);
    if (!quiz) throw notFound(`No existe el cuestionario '${quizId}'.`, { quiz: quizId });
    const who = student(body.student);
    const questions = store.questions(quiz.id);
    const keys = new Set(questions.map((q) => q.clave));
    const unknown = Object.keys(body.answers).filter((k) => !keys.has(k));
    if (unknown.length > 0) {
      throw unprocessable(
        `El cuestionario ${quiz.id} no tiene las preguntas ${unknown.join(', ')}; sus preguntas son ` +
          `${[...keys].join(', ')}.`,
        { questions: unknown },
      );
    }
    for (const q of questions) {
      const given = body.answers[q.clave];
      const options = Object.keys(JSON.parse(q.opciones_json) as Record<string, string>);
      if (given !== undefined && !options.includes(given)) {
        throw unprocessable(
          `La pregunta ${q.clave} no tiene la opción '${given}'; sus opciones son ${options.join(', ')}.`,
          { question: q.clave },
        );
      }
    }
    const results = questions.map((q) => {
      const given = body.answers[q.clave];
      return {
        question: q.clave,
        text: q.enunciado,
        ...(given === undefined ? {} : { given }),
        correct_option: q.correcta,
        is_correct: given === q.correcta,
        explanation: q.explicacion,
      };
    });
    const correct = results.filter((r) => r.is_correct).length;
    const passed = questions.length > 0 && correct / questions.length >= quiz.nota_minima;
    const submittedAt = iso(now());
    const attemptId = store.transaction(() => {
      enrolledIn(who.id, quiz.curso_id);
      return store.insertAttempt({
        quiz_id: quiz.id,
        estudiante_id: who.id,
        respuestas_json: JSON.stringify(body.answers),
        aciertos: correct,
        total: questions.length,
        aprobado: passed ? 1 : 0,
        enviado_en: submittedAt,
      });
    });
    const result: QuizResult = {
      attempt_id: attemptId,
      quiz: quiz.id,
      student: who.id,
      correct,
      total: questions.length,
      passed,
      submitted_at: submittedAt,
      results,
    };
    return jsonResponse(201, result);
  };

  const runQuery = async (request: IncomingRestRequest): Promise<SqlResult> => {
    const body = parseBody(request, SqlQueryRequestSchema);
    let screened: ReturnType<typeof screenQuery>;
    try {
      screened = screenQuery(body.sql);
    } catch (error) {
      if (error instanceof SqlRefusal) throw unprocessable(error.message, { refused: 'guard' });
      throw error;
    }
    const rowLimit = Math.min(body.limit ?? Number.POSITIVE_INFINITY, options.sqlRowLimit ?? SQL_ROW_LIMIT);
    const run = await sql.run(
      {
        sql: body.sql,
        // SQLite has no boolean type: true and false are stored and compared as 1 and 0.
        params: body.params.map((p) => (typeof p === 'boolean' ? Number(p) : p)),
        numbered: screened.numbered,
        names: screened.names,
        limit: rowLimit,
        ...(body.session ? { session: body.session } : {}),
      },
      request.signal,
    );
    if (!run.ok) {
      const detail =
        run.kind === 'refused'
          ? `Consulta rechazada: ${run.message} consulta_sql solo ejecuta lecturas de la analítica.`
          : run.kind === 'error'
            ? `La consulta no es válida para SQLite: ${run.message}`
            : run.message;
      throw unprocessable(detail, { refused: run.kind });
    }
    return {
      columns: run.columns,
      rows: run.rows,
      row_count: run.rows.length,
      truncated: run.truncated !== false,
      ...(run.truncated ? { truncated_by: run.truncated } : {}),
      row_limit: rowLimit,
      byte_limit: byteLimit,
      bytes: run.bytes,
      elapsed_ms: run.elapsedMs,
    };
  };

  const table = (name: string): Table => {
    if (!store.tableNames().includes(name)) {
      throw notFound(`No existe la tabla '${name}'. Tablas: ${store.tableNames().join(', ')}.`, {
        table: name,
      });
    }
    const foreignKeys = store.foreignKeys(name);
    return {
      name,
      description: TABLE_DESCRIPTIONS[name] ?? '',
      row_count: store.rowCount(name),
      columns: store.columns(name).map((c) => ({
        name: c.name,
        type: c.type,
        // A primary key column of a rowid table accepts no NULL even without NOT NULL.
        nullable: c.notnull === 0 && !(c.pk > 0 && c.type.toUpperCase() === 'INTEGER'),
        default: c.dflt_value,
        primary_key: c.pk > 0,
      })),
      foreign_keys: foreignKeys.map((fk) => ({ column: fk.from, references: `${fk.table}.${fk.to}` })),
    };
  };

  const handler = createRouter(
    [
      {
        method: 'GET',
        pattern: '/healthz',
        handle: () => ({ status: 'ok', system: 'academy', version: VERSION }),
      },
      {
        method: 'GET',
        pattern: '/v1/courses',
        handle: ({ request }) => {
          const { q } = parseQuery(request.query, z.object({ q: z.string().trim().max(200).optional() }));
          return { courses: store.searchCourses(q || undefined).map(courseSummary) };
        },
      },
      {
        method: 'GET',
        pattern: '/v1/courses/:course',
        handle: ({ params }) => {
          const row = course(params.course!);
          const result: Course = {
            ...courseSummary(row),
            lessons: store.lessonsOf(row.id).map(lessonSummary),
          };
          return result;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/courses/:course/lessons/:lesson',
        handle: ({ params }) => {
          const row = course(params.course!);
          const found = lesson(params.lesson!);
          if (found.curso_id !== row.id) {
            throw notFound(
              `La lección '${found.id}' no es del curso '${row.id}' sino de '${found.curso_id}'.`,
              { lesson: found.id },
            );
          }
          return lessonDto(found);
        },
      },
      {
        method: 'GET',
        pattern: '/v1/lessons/:lesson',
        handle: ({ params }) => lessonDto(lesson(params.lesson!)),
      },
      {
        method: 'GET',
        pattern: '/v1/quizzes/:quiz',
        handle: ({ params }) => {
          const quiz = store.getQuiz(params.quiz!);
          if (!quiz) throw notFound(`No existe el cuestionario '${params.quiz}'.`, { quiz: params.quiz });
          const result: Quiz = {
            id: quiz.id,
            course: quiz.curso_id,
            lesson: quiz.leccion_id,
            title: quiz.titulo,
            pass_ratio: quiz.nota_minima,
            questions: store.questions(quiz.id).map((q) => ({
              key: q.clave,
              text: q.enunciado,
              options: Object.entries(JSON.parse(q.opciones_json) as Record<string, string>).map(
                ([key, text]) => ({
                  key,
                  text,
                }),
              ),
            })),
          };
          return result;
        },
      },
      {
        method: 'POST',
        pattern: '/v1/quizzes/:quiz/attempts',
        handle: ({ params, request }) => submitQuiz(params.quiz!, request),
      },
      {
        method: 'GET',
        pattern: '/v1/students/:student/progress',
        handle: ({ params }) => {
          const who = student(params.student!);
          const result: StudentProgress = {
            student: { id: who.id, name: who.nombre, cohort: who.cohorte, country: who.pais },
            courses: store
              .enrollments(who.id)
              .map((e) => courseProgress(who.id, e.curso_id, e.titulo, e.matriculado_en)),
          };
          return result;
        },
      },
      {
        method: 'POST',
        pattern: '/v1/students/:student/progress',
        handle: ({ params, request }) => recordProgress(params.student!, request),
      },
      { method: 'POST', pattern: '/v1/sql', handle: ({ request }) => runQuery(request) },
      {
        method: 'GET',
        pattern: '/v1/schema/tables',
        handle: () => ({ tables: store.tableNames().map(table) }),
      },
      { method: 'GET', pattern: '/v1/schema/tables/:table', handle: ({ params }) => table(params.table!) },
    ],
    options.onError,
  );

  return {
    handler,
    store,
    close: () => {
      sql.close();
      store.close();
    },
  };
}

function parseBody<T extends z.ZodType>(request: IncomingRestRequest, schema: T): z.output<T> {
  let raw: unknown;
  try {
    raw = request.body ? JSON.parse(request.body) : undefined;
  } catch {
    raw = undefined;
  }
  if (raw === undefined) throw badRequest('El cuerpo de la petición debe ser un objeto JSON.');
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.join('.') || 'cuerpo';
  const value = 'input' in issue ? `; recibido: ${JSON.stringify(issue.input)?.slice(0, 80)}` : '';
  throw badRequest(`Campo '${name}' inválido (${issue.message})${value}`, { field: name });
}
