import { openDatabase, type SqlDatabase } from '../storage/index.js';
import { COURSES, QUIZZES, type QuizSeed, STUDENTS } from './content.js';

/** Case and accents folded the Unicode way, so "orbita" finds "Órbitas" and "estacion" finds "estación". */
export const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('es');

/**
 * Table and column names are Spanish on purpose: `consulta_sql` and `schema://tablas/{tabla}` show them
 * to the cluster's Spanish-speaking users, so they are part of the MCP surface.
 */
const SCHEMA = `
CREATE TABLE cursos (
  id TEXT PRIMARY KEY,
  titulo TEXT NOT NULL,
  descripcion TEXT NOT NULL,
  nivel TEXT NOT NULL CHECK (nivel IN ('inicial', 'intermedio', 'avanzado')),
  horas INTEGER NOT NULL CHECK (horas >= 0),
  etiquetas TEXT NOT NULL DEFAULT '',
  publicado_en TEXT NOT NULL
);
CREATE TABLE lecciones (
  id TEXT PRIMARY KEY,
  curso_id TEXT NOT NULL REFERENCES cursos (id),
  orden INTEGER NOT NULL CHECK (orden >= 1),
  titulo TEXT NOT NULL,
  minutos INTEGER NOT NULL DEFAULT 15,
  contenido_md TEXT NOT NULL,
  UNIQUE (curso_id, orden)
);
CREATE TABLE estudiantes (
  id TEXT PRIMARY KEY,
  nombre TEXT NOT NULL,
  pais TEXT NOT NULL,
  cohorte TEXT NOT NULL,
  alta_en TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE matriculas (
  estudiante_id TEXT NOT NULL REFERENCES estudiantes (id),
  curso_id TEXT NOT NULL REFERENCES cursos (id),
  matriculado_en TEXT NOT NULL,
  PRIMARY KEY (estudiante_id, curso_id)
);
CREATE TABLE avances (
  estudiante_id TEXT NOT NULL REFERENCES estudiantes (id),
  leccion_id TEXT NOT NULL REFERENCES lecciones (id),
  completado_en TEXT NOT NULL,
  PRIMARY KEY (estudiante_id, leccion_id)
);
CREATE TABLE quizzes (
  id TEXT PRIMARY KEY,
  leccion_id TEXT NOT NULL UNIQUE REFERENCES lecciones (id),
  titulo TEXT NOT NULL,
  nota_minima REAL NOT NULL DEFAULT 0.6 CHECK (nota_minima BETWEEN 0 AND 1)
);
CREATE TABLE preguntas (
  quiz_id TEXT NOT NULL REFERENCES quizzes (id),
  clave TEXT NOT NULL,
  orden INTEGER NOT NULL,
  enunciado TEXT NOT NULL,
  opciones_json TEXT NOT NULL,
  correcta TEXT NOT NULL,
  explicacion TEXT NOT NULL,
  PRIMARY KEY (quiz_id, clave)
);
CREATE TABLE intentos (
  id INTEGER PRIMARY KEY,
  quiz_id TEXT NOT NULL REFERENCES quizzes (id),
  estudiante_id TEXT NOT NULL REFERENCES estudiantes (id),
  respuestas_json TEXT NOT NULL,
  aciertos INTEGER NOT NULL,
  total INTEGER NOT NULL,
  aprobado INTEGER NOT NULL CHECK (aprobado IN (0, 1)),
  enviado_en TEXT NOT NULL
);
CREATE INDEX intentos_por_estudiante ON intentos (estudiante_id, quiz_id);
`;

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

const sql = (value: string | number) =>
  typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
const row = (...values: Array<string | number>) => `(${values.map(sql).join(', ')})`;
const OPTION_KEYS = 'abcdef';
const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

const questionRows = (q: QuizSeed) =>
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
function seedSql(): string {
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

/**
 * Installs seeded before quiz-mcp-04 existed had the `horas: 200` question as p3 of quiz-mcp-01 (the N×M
 * lesson); it belongs to mcp-04-errores, the lesson that teaches the answer. On a fresh install (seeded
 * from content.ts as it is now) every statement here changes nothing.
 */
function moveErrorsQuiz(): string {
  const quiz = QUIZZES.find((q) => q.id === 'quiz-mcp-04')!;
  const nxm = QUIZZES.find((q) => q.id === 'quiz-mcp-01')!;
  return [
    `DELETE FROM preguntas WHERE quiz_id = 'quiz-mcp-01' AND clave = 'p3';`,
    `UPDATE quizzes SET titulo = ${sql(nxm.title)}, nota_minima = ${nxm.passRatio} WHERE id = 'quiz-mcp-01';`,
    `INSERT OR IGNORE INTO quizzes (id, leccion_id, titulo, nota_minima) VALUES ${row(quiz.id, quiz.lesson, quiz.title, quiz.passRatio)};`,
    `INSERT OR IGNORE INTO preguntas (quiz_id, clave, orden, enunciado, opciones_json, correcta, explicacion) VALUES ${questionRows(quiz).join(',\n')};`,
  ].join('\n');
}

/** The analytics views over the private tables. */
const VIEW_BASES: Readonly<Record<string, string>> = {
  preguntas: 'preguntas_privadas',
  intentos: 'intentos_privados',
};

/**
 * consulta_sql must not read quiz answers or other students' responses: the tables that hold them get
 * private names and the analytics surface gets views without those columns, under the names it had.
 */
const HIDE_ANSWERS = `
ALTER TABLE preguntas RENAME TO preguntas_privadas;
ALTER TABLE intentos RENAME TO intentos_privados;
CREATE VIEW preguntas AS SELECT quiz_id, clave, orden, enunciado, opciones_json FROM preguntas_privadas;
CREATE VIEW intentos AS
  SELECT id, quiz_id, estudiante_id, aciertos, total, aprobado, enviado_en FROM intentos_privados;
`;

/** Exported for the upgrade test, which builds a store as an older build left it. */
export const MIGRATIONS: readonly string[] = [SCHEMA, seedSql(), moveErrorsQuiz(), HIDE_ANSWERS];

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

export interface ColumnRow {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** The academy's storage: every SQL statement of the system (but the analytics queries) lives here. */
export interface AcademyStore {
  readonly file: string;
  transaction<T>(work: () => T): T;
  searchCourses(text?: string): CourseRow[];
  getCourse(id: string): CourseRow | undefined;
  lessonsOf(course: string): LessonRow[];
  getLesson(id: string): LessonRow | undefined;
  getStudent(id: string): StudentRow | undefined;
  enrollments(student: string): EnrollmentRow[];
  completedLessons(student: string, course: string): Array<{ leccion_id: string }>;
  isCompleted(student: string, lesson: string): { completado_en: string } | undefined;
  recordProgress(student: string, lesson: string, at: string): void;
  getQuiz(id: string): QuizRow | undefined;
  questions(quiz: string): QuestionRow[];
  attempts(student: string, course: string): AttemptRow[];
  insertAttempt(
    a: Omit<AttemptRow, 'id' | 'curso_id'> & { estudiante_id: string; respuestas_json: string },
  ): number;
  tableNames(): string[];
  columns(table: string): ColumnRow[];
  foreignKeys(table: string): Array<{ from: string; table: string; to: string }>;
  rowCount(table: string): number;
  close(): void;
}

export function openAcademyStore(file: string): AcademyStore {
  const db: SqlDatabase = openDatabase(file, { migrations: MIGRATIONS });
  const courseColumns = `c.id, c.titulo, c.descripcion, c.nivel, c.horas, c.etiquetas,
    (SELECT count(*) FROM lecciones l WHERE l.curso_id = c.id) AS lecciones,
    (SELECT count(*) FROM matriculas m WHERE m.curso_id = c.id) AS estudiantes`;
  const allCourses = db.prepare(`SELECT ${courseColumns} FROM cursos c ORDER BY c.publicado_en, c.id`);
  // SQLite's lower() folds ASCII only: the text search folds in JS, over a few courses' texts.
  const searchTexts = db.prepare(
    `SELECT c.id, c.titulo || ' ' || c.descripcion || ' ' || c.etiquetas || ' ' ||
       coalesce((SELECT group_concat(l.titulo, ' ') FROM lecciones l WHERE l.curso_id = c.id), '') AS texto
     FROM cursos c`,
  );
  const getCourse = db.prepare(`SELECT ${courseColumns} FROM cursos c WHERE c.id = ?`);
  const lessonColumns = `l.id, l.curso_id, c.titulo AS curso_titulo, l.orden, l.titulo, l.minutos, l.contenido_md,
    q.id AS quiz_id`;
  const lessonFrom =
    'lecciones l JOIN cursos c ON c.id = l.curso_id LEFT JOIN quizzes q ON q.leccion_id = l.id';
  const lessonsOf = db.prepare(
    `SELECT ${lessonColumns} FROM ${lessonFrom} WHERE l.curso_id = ? ORDER BY l.orden`,
  );
  const getLesson = db.prepare(`SELECT ${lessonColumns} FROM ${lessonFrom} WHERE l.id = ?`);
  const getStudent = db.prepare('SELECT id, nombre, pais, cohorte FROM estudiantes WHERE id = ?');
  const enrollments = db.prepare(
    `SELECT m.curso_id, c.titulo, m.matriculado_en FROM matriculas m JOIN cursos c ON c.id = m.curso_id
     WHERE m.estudiante_id = ? ORDER BY m.matriculado_en, m.curso_id`,
  );
  const completedLessons = db.prepare(
    `SELECT a.leccion_id FROM avances a JOIN lecciones l ON l.id = a.leccion_id
     WHERE a.estudiante_id = ? AND l.curso_id = ? ORDER BY l.orden`,
  );
  const isCompleted = db.prepare(
    'SELECT completado_en FROM avances WHERE estudiante_id = ? AND leccion_id = ?',
  );
  const recordProgress = db.prepare(
    'INSERT OR IGNORE INTO avances (estudiante_id, leccion_id, completado_en) VALUES (?, ?, ?)',
  );
  const getQuiz = db.prepare(
    `SELECT q.id, q.leccion_id, l.curso_id, q.titulo, q.nota_minima
     FROM quizzes q JOIN lecciones l ON l.id = q.leccion_id WHERE q.id = ?`,
  );
  const questions = db.prepare(
    'SELECT clave, enunciado, opciones_json, correcta, explicacion FROM preguntas_privadas WHERE quiz_id = ? ORDER BY orden',
  );
  const attempts = db.prepare(
    `SELECT i.id, i.quiz_id, l.curso_id, i.aciertos, i.total, i.aprobado, i.enviado_en
     FROM intentos_privados i JOIN quizzes q ON q.id = i.quiz_id JOIN lecciones l ON l.id = q.leccion_id
     WHERE i.estudiante_id = ? AND l.curso_id = ? ORDER BY i.enviado_en, i.id`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO intentos_privados (quiz_id, estudiante_id, respuestas_json, aciertos, total, aprobado, enviado_en)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const tableNames = db.prepare(
    `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'
       AND name NOT IN (${Object.keys(PRIVATE_TABLES).map(sql).join(', ')}) ORDER BY name`,
  );
  const columns = db.prepare(
    'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid',
  );
  const foreignKeys = db.prepare(
    'SELECT "from", "table", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq',
  );

  return {
    file,
    transaction: (work) => db.transaction(work),
    searchCourses: (text) => {
      const all = allCourses.all<CourseRow>();
      if (!text) return all;
      const wanted = fold(text);
      const matching = new Set(
        searchTexts
          .all<{ id: string; texto: string }>()
          .filter((c) => fold(c.texto).includes(wanted))
          .map((c) => c.id),
      );
      return all.filter((c) => matching.has(c.id));
    },
    getCourse: (id) => getCourse.get<CourseRow>(id),
    lessonsOf: (course) => lessonsOf.all<LessonRow>(course),
    getLesson: (id) => getLesson.get<LessonRow>(id),
    getStudent: (id) => getStudent.get<StudentRow>(id),
    enrollments: (student) => enrollments.all<EnrollmentRow>(student),
    completedLessons: (student, course) => completedLessons.all(student, course),
    isCompleted: (student, lesson) => isCompleted.get(student, lesson),
    recordProgress: (student, lesson, at) => {
      recordProgress.run(student, lesson, at);
    },
    getQuiz: (id) => getQuiz.get<QuizRow>(id),
    questions: (quiz) => questions.all<QuestionRow>(quiz),
    attempts: (student, course) => attempts.all<AttemptRow>(student, course),
    insertAttempt: (a) =>
      Number(
        insertAttempt.run(
          a.quiz_id,
          a.estudiante_id,
          a.respuestas_json,
          a.aciertos,
          a.total,
          a.aprobado,
          a.enviado_en,
        ).lastInsertRowid,
      ),
    tableNames: () => tableNames.all<{ name: string }>().map((r) => r.name),
    // A view reports every column nullable and no keys: describe the analytics views by their base table.
    columns: (table) => {
      const own = columns.all<ColumnRow>(table);
      const base = VIEW_BASES[table];
      if (!base) return own;
      const full = new Map(columns.all<ColumnRow>(base).map((c) => [c.name, c]));
      return own.map((c) => full.get(c.name) ?? c);
    },
    foreignKeys: (table) => {
      const base = VIEW_BASES[table];
      if (!base) return foreignKeys.all(table);
      const visible = new Set(columns.all<ColumnRow>(table).map((c) => c.name));
      return foreignKeys
        .all<{ from: string; table: string; to: string }>(base)
        .filter((fk) => visible.has(fk.from));
    },
    // The name comes from tableNames(), never from a request: it is safe to splice in.
    rowCount: (table) => db.prepare(`SELECT count(*) AS n FROM "${table}"`).get<{ n: number }>()!.n,
    close: () => db.close(),
  };
}
