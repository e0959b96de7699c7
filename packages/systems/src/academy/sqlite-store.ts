import { openDatabase, type SqlDatabase, sqliteTurns } from '../storage/index.js';
import { QUIZZES } from './content.js';
import {
  type AcademyQueries,
  type AcademyStore,
  type AttemptRow,
  COURSE_COLUMNS,
  type ColumnInfo,
  type CourseRow,
  describeColumns,
  describeForeignKeys,
  type EnrollmentRow,
  type ForeignKeyInfo,
  HIDE_ANSWERS,
  LESSON_COLUMNS,
  LESSON_FROM,
  type LessonRow,
  matchCourses,
  PRIVATE_TABLES,
  type QuestionRow,
  type QuizRow,
  questionRows,
  row,
  type StudentRow,
  seedSql,
  sql,
} from './store.js';

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

/** Exported for the upgrade test, which builds a store as an older build left it. */
export const MIGRATIONS: readonly string[] = [SCHEMA, seedSql(), moveErrorsQuiz(), HIDE_ANSWERS];

/**
 * The academy's store on SQLite. The driver is synchronous and one connection serves every request, so
 * the store runs one transaction at a time and nothing else while it is open: a per-store queue holds
 * every other call until the transaction in progress commits or rolls back.
 */
export function openSqliteAcademyStore(file: string): AcademyStore {
  const db: SqlDatabase = openDatabase(file, { migrations: MIGRATIONS });
  const allCourses = db.prepare(`SELECT ${COURSE_COLUMNS} FROM cursos c ORDER BY c.publicado_en, c.id`);
  // SQLite's lower() folds ASCII only: the text search folds in JS (matchCourses), over a few courses' texts.
  const searchTexts = db.prepare(
    `SELECT c.id, c.titulo || ' ' || c.descripcion || ' ' || c.etiquetas || ' ' ||
       coalesce((SELECT group_concat(l.titulo, ' ') FROM lecciones l WHERE l.curso_id = c.id), '') AS texto
     FROM cursos c`,
  );
  const getCourse = db.prepare(`SELECT ${COURSE_COLUMNS} FROM cursos c WHERE c.id = ?`);
  const lessonsOf = db.prepare(
    `SELECT ${LESSON_COLUMNS} FROM ${LESSON_FROM} WHERE l.curso_id = ? ORDER BY l.orden`,
  );
  const getLesson = db.prepare(`SELECT ${LESSON_COLUMNS} FROM ${LESSON_FROM} WHERE l.id = ?`);
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
  const pragmaColumns = db.prepare(
    'SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid',
  );
  const foreignKeys = db.prepare(
    'SELECT "from", "table", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq',
  );
  const columnsOf = async (table: string): Promise<ColumnInfo[]> =>
    pragmaColumns
      .all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(table)
      .map((c) => ({
        name: c.name,
        type: c.type,
        // A primary key column of a rowid table accepts no NULL even without NOT NULL.
        nullable: c.notnull === 0 && !(c.pk > 0 && c.type.toUpperCase() === 'INTEGER'),
        default: c.dflt_value,
        primary_key: c.pk > 0,
      }));
  const keysOf = async (table: string) => foreignKeys.all<ForeignKeyInfo>(table);

  // Synchronous statements behind async signatures: nothing awaits between a statement and its result.
  const queries: AcademyQueries = {
    searchCourses: async (text) =>
      matchCourses(allCourses.all<CourseRow>(), searchTexts.all<{ id: string; texto: string }>(), text),
    getCourse: async (id) => getCourse.get<CourseRow>(id),
    lessonsOf: async (course) => lessonsOf.all<LessonRow>(course),
    getLesson: async (id) => getLesson.get<LessonRow>(id),
    getStudent: async (id) => getStudent.get<StudentRow>(id),
    enrollments: async (student) => enrollments.all<EnrollmentRow>(student),
    completedLessons: async (student, course) => completedLessons.all(student, course),
    isCompleted: async (student, lesson) => isCompleted.get(student, lesson),
    recordProgress: async (student, lesson, at) => recordProgress.run(student, lesson, at).changes === 1,
    getQuiz: async (id) => getQuiz.get<QuizRow>(id),
    questions: async (quiz) => questions.all<QuestionRow>(quiz),
    attempts: async (student, course) => attempts.all<AttemptRow>(student, course),
    insertAttempt: async (a) =>
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
    tableNames: async () => tableNames.all<{ name: string }>().map((r) => r.name),
    columns: (table) => describeColumns(table, columnsOf),
    foreignKeys: (table) => describeForeignKeys(table, columnsOf, keysOf),
    // The name comes from tableNames(), never from a request: it is safe to splice in.
    rowCount: async (table) => db.prepare(`SELECT count(*) AS n FROM "${table}"`).get<{ n: number }>()!.n,
  };

  // One transaction at a time, and no call of another request inside one: every call waits its turn.
  const turns = sqliteTurns(db, queries);
  return {
    engine: 'SQLite',
    where: file,
    ...turns.queries,
    transaction: turns.transaction,
    close: turns.close,
  };
}
