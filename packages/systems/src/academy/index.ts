export { COURSES, QUIZZES, STUDENTS } from './content.js';
export { assertSingleSelect, SqlRefusal } from './sql-guard.js';
export { ReadOnlySqlRunner, type SqlRun, type SqlRunnerOptions } from './sql-runner.js';
export {
  type AcademySystem,
  type AcademySystemOptions,
  createAcademySystem,
  defaultDatabaseFile,
} from './system.js';
