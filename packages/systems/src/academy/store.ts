import { COURSES, QUIZZES, type QuizSeed, STUDENTS } from './content.js';

/** Case and accents folded the Unicode way, so "orbita" finds "Órbitas" and "estacion" finds "estación". */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('es');

/**
 * Table and column names are Spanish on purpose: `consulta_sql` and `schema://tablas/{tabla}` show them
 * to the cluster's Spanish-speaking users, so they are part of the MCP surface.
 */
/** What each table holds, for `schema://tablas/{tabla}` (Spanish: the surface of the MCP server). */
export const TABLE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  cursos: 'Cursos publicados: título, descripción, nivel, horas y etiquetas (separadas por comas).',
  lecciones: 'Lecciones de cada curso en orden, con su contenido en markdown.',
  estudiantes: 'Estudiantes de la academia: nombre, país (ISO 3166) y cohorte.',
  matriculas: 'Qué estudiante está matriculado en qué curso y desde cuándo.',
  avances: 'Lecciones completadas por cada estudiante (una fila por lección completada).',
  quizzes: 'Cuestionarios, uno por lección como mucho, con la nota mínima para aprobar (0–1).',
  preguntas:
    'Vista: preguntas de cada cuestionario con sus opciones (JSON), sin la respuesta correcta ni la explicación.',
  intentos:
    'Vista: intentos de cuestionario de cada estudiante con aciertos y resultado, sin las respuestas elegidas.',
};

export const sql = (value: string | number) =>
  typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
export const row = (...values: Array<string | number>) => `(${values.map(sql).join(', ')})`;
const OPTION_KEYS = 'abcdef';
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

export const questionRows = (q: QuizSeed) =>
  q.questions.map((p, i) =>
    row(
      q.id,
      `p${i + 1}`,
      i + 1,
      p.text,
      JSON.stringify(Object.fromEntries(p.options.map((o, j) => [OPTION_KEYS[j], o]))),
      OPTION_KEYS[p.correct]!,
      p.explanation,
    ),
  );

/**
 * The reference data as one migration: courses and quizzes from content.ts, and twenty students whose
 * enrollments and progress follow a fixed rule (so every install has the same numbers to analyse).
 */
export function seedSql(): string {
  const statements: string[] = [];
  const lessonsOf = new Map(COURSES.map((c) => [c.id, c.lessons.map((l) => l.id)]));
  statements.push(
    `INSERT INTO cursos (id, titulo, descripcion, nivel, horas, etiquetas, publicado_en) VALUES ${COURSES.map(
      (c) => row(c.id, c.title, c.description, c.level, c.hours, c.tags.join(','), c.publishedAt),
    ).join(',\n')};`,
    `INSERT INTO lecciones (id, curso_id, orden, titulo, minutos, contenido_md) VALUES ${COURSES.flatMap(
      (c) => c.lessons.map((l, i) => row(l.id, c.id, i + 1, l.title, l.minutes, l.markdown)),
    ).join(',\n')};`,
    `INSERT INTO quizzes (id, leccion_id, titulo, nota_minima) VALUES ${QUIZZES.map((q) =>
      row(q.id, q.lesson, q.title, q.passRatio),
    ).join(',\n')};`,
    `INSERT INTO preguntas (quiz_id, clave, orden, enunciado, opciones_json, correcta, explicacion) VALUES ${QUIZZES.flatMap(
      questionRows,
    ).join(',\n')};`,
    `INSERT INTO estudiantes (id, nombre, pais, cohorte, alta_en) VALUES ${STUDENTS.map((s, i) =>
      row(s.id, s.name, s.country, s.cohort, isoDay(Date.parse('2026-01-05T10:00:00Z') + i * 3 * DAY)),
    ).join(',\n')};`,
  );

  const enrollments: string[] = [];
  const progress: string[] = [];
  const attempts: string[] = [];
  STUDENTS.forEach((student, i) => {
    const courses = ['mcp', ...(i % 2 === 0 ? ['orbitas'] : [])];
    if (i % 3 === 0) courses.push('estaciones-terrenas');
    if (i % 4 === 1) courses.push('sql-analitica');
    courses.forEach((course, c) => {
      const enrolledMs = Date.parse('2026-05-04T09:00:00Z') + (i + c * 5) * DAY;
      enrollments.push(row(student.id, course, isoDay(enrolledMs)));
      const lessons = lessonsOf.get(course)!;
      const done = (i * 7 + c * 3) % (lessons.length + 1);
      lessons.slice(0, done).forEach((lesson, j) => {
        const completedMs = enrolledMs + (j + 1) * DAY + i * 3_600_000;
        progress.push(row(student.id, lesson, isoDay(completedMs)));
        const quiz = QUIZZES.find((q) => q.lesson === lesson);
        if (!quiz || i % 3 === 2) return;
        // Every fourth student gets the first question wrong: the numbers have a story to find.
        const answers = Object.fromEntries(
          quiz.questions.map((q, k) => [
            `p${k + 1}`,
            OPTION_KEYS[k === 0 && i % 4 === 3 ? (q.correct + 1) % q.options.length : q.correct]!,
          ]),
        );
        const correct = quiz.questions.length - (i % 4 === 3 ? 1 : 0);
        const passed = correct / quiz.questions.length >= quiz.passRatio ? 1 : 0;
        attempts.push(
          row(
            quiz.id,
            student.id,
            JSON.stringify(answers),
            correct,
            quiz.questions.length,
            passed,
            isoDay(completedMs + 3_600_000),
          ),
        );
      });
    });
  });
  statements.push(
    `INSERT INTO matriculas (estudiante_id, curso_id, matriculado_en) VALUES ${enrollments.join(',\n')};`,
    `INSERT INTO avances (estudiante_id, leccion_id, completado_en) VALUES ${progress.join(',\n')};`,
    `INSERT INTO intentos (quiz_id, estudiante_id, respuestas_json, aciertos, total, aprobado, enviado_en) VALUES ${attempts.join(',\n')};`,
  );
  return statements.join('\n');
}

/** The analytics surface's hidden storage: tables holding answers, read through views without them. */
export const PRIVATE_TABLES: Readonly<Record<string, readonly string[]>> = {
  preguntas_privadas: ['correcta', 'explicacion'],
  intentos_privados: ['respuestas_json'],
};

/** The analytics views over the private tables. */
export const VIEW_BASES: Readonly<Record<string, string>> = {
  preguntas: 'preguntas_privadas',
  intentos: 'intentos_privados',
};

/**
 * consulta_sql must not read quiz answers or other students' responses: the tables that hold them get
 * private names and the analytics surface gets views without those columns, under the names it had.
 */
export const HIDE_ANSWERS = `
ALTER TABLE preguntas RENAME TO preguntas_privadas;
ALTER TABLE intentos RENAME TO intentos_privados;
CREATE VIEW preguntas AS SELECT quiz_id, clave, orden, enunciado, opciones_json FROM preguntas_privadas;
CREATE VIEW intentos AS
  SELECT id, quiz_id, estudiante_id, aciertos, total, aprobado, enviado_en FROM intentos_privados;
`;

export interface CourseRow {
  id: string;
  titulo: string;
  descripcion: string;
  nivel: 'inicial' | 'intermedio' | 'avanzado';
  horas: number;
  etiquetas: string;
  lecciones: number;
  estudiantes: number;
}

export interface LessonRow {
  id: string;
  curso_id: string;
  curso_titulo: string;
  orden: number;
  titulo: string;
  minutos: number;
  contenido_md: string;
  quiz_id: string | null;
}

export interface StudentRow {
  id: string;
  nombre: string;
  pais: string;
  cohorte: string;
}

export interface EnrollmentRow {
  curso_id: string;
  titulo: string;
  matriculado_en: string;
}

export interface QuizRow {
  id: string;
  leccion_id: string;
  curso_id: string;
  titulo: string;
  nota_minima: number;
}

export interface QuestionRow {
  clave: string;
  enunciado: string;
  opciones_json: string;
  correcta: string;
  explicacion: string;
}

export interface AttemptRow {
  id: number;
  quiz_id: string;
  curso_id: string;
  aciertos: number;
  total: number;
  aprobado: number;
  enviado_en: string;
}

/** One column as `schema://tablas/{tabla}` shows it, whichever engine described it. */
export interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  primary_key: boolean;
}

export interface ForeignKeyInfo {
  from: string;
  table: string;
  to: string;
}

export type NewAttempt = Omit<AttemptRow, 'id' | 'curso_id'> & {
  estudiante_id: string;
  respuestas_json: string;
};

/** Every read and write of the use cases, on either engine; inside a transaction, on its connection. */
export interface AcademyQueries {
  searchCourses(text?: string): Promise<CourseRow[]>;
  getCourse(id: string): Promise<CourseRow | undefined>;
  lessonsOf(course: string): Promise<LessonRow[]>;
  getLesson(id: string): Promise<LessonRow | undefined>;
  getStudent(id: string): Promise<StudentRow | undefined>;
  enrollments(student: string): Promise<EnrollmentRow[]>;
  completedLessons(student: string, course: string): Promise<Array<{ leccion_id: string }>>;
  isCompleted(student: string, lesson: string): Promise<{ completado_en: string } | undefined>;
  /** Records a completed lesson unless it is recorded already; true when this call recorded it. */
  recordProgress(student: string, lesson: string, at: string): Promise<boolean>;
  getQuiz(id: string): Promise<QuizRow | undefined>;
  questions(quiz: string): Promise<QuestionRow[]>;
  attempts(student: string, course: string): Promise<AttemptRow[]>;
  insertAttempt(attempt: NewAttempt): Promise<number>;
  /** The analytics surface: tables and views, without the private tables. */
  tableNames(): Promise<string[]>;
  /** A table's columns; a view of a private table is described by its base table's columns. */
  columns(table: string): Promise<ColumnInfo[]>;
  foreignKeys(table: string): Promise<ForeignKeyInfo[]>;
  /** `table` must come from tableNames(). */
  rowCount(table: string): Promise<number>;
}

/**
 * The academy's storage: every SQL statement of the system but the analytics queries lives behind it,
 * on SQLite (sqlite-store.ts) or PostgreSQL (postgres-store.ts).
 */
export interface AcademyStore extends AcademyQueries {
  readonly engine: 'SQLite' | 'PostgreSQL';
  /** The SQLite file, or the PostgreSQL URL without its password. */
  readonly where: string;
  /** Runs `work` in one transaction: all of its writes commit or none, and no other request runs inside it. */
  transaction<T>(work: (tx: AcademyQueries) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The text search, the same on both engines: case and accents folded in JS, over the few courses' texts. */
export function matchCourses(
  all: CourseRow[],
  texts: Array<{ id: string; texto: string }>,
  text: string | undefined,
): CourseRow[] {
  if (!text) return all;
  const wanted = fold(text);
  const matching = new Set(texts.filter((c) => fold(c.texto).includes(wanted)).map((c) => c.id));
  return all.filter((c) => matching.has(c.id));
}

/**
 * A view over a private table reports every column nullable and no keys: its columns are described by
 * the base table's, and its foreign keys are the base table's on the columns it shows.
 */
export async function describeColumns(
  table: string,
  columnsOf: (table: string) => Promise<ColumnInfo[]>,
): Promise<ColumnInfo[]> {
  const own = await columnsOf(table);
  const base = VIEW_BASES[table];
  if (!base) return own;
  const full = new Map((await columnsOf(base)).map((c) => [c.name, c]));
  return own.map((c) => full.get(c.name) ?? c);
}

export async function describeForeignKeys(
  table: string,
  columnsOf: (table: string) => Promise<ColumnInfo[]>,
  keysOf: (table: string) => Promise<ForeignKeyInfo[]>,
): Promise<ForeignKeyInfo[]> {
  const base = VIEW_BASES[table];
  if (!base) return keysOf(table);
  const visible = new Set((await columnsOf(table)).map((c) => c.name));
  return (await keysOf(base)).filter((fk) => visible.has(fk.from));
}

/** SQL shared by both stores (standard SQL that both engines read the same). */
export const COURSE_COLUMNS = `c.id, c.titulo, c.descripcion, c.nivel, c.horas, c.etiquetas,
    (SELECT count(*) FROM lecciones l WHERE l.curso_id = c.id) AS lecciones,
    (SELECT count(*) FROM matriculas m WHERE m.curso_id = c.id) AS estudiantes`;
export const LESSON_COLUMNS = `l.id, l.curso_id, c.titulo AS curso_titulo, l.orden, l.titulo, l.minutos, l.contenido_md,
    q.id AS quiz_id`;
export const LESSON_FROM =
  'lecciones l JOIN cursos c ON c.id = l.curso_id LEFT JOIN quizzes q ON q.leccion_id = l.id';
