export { COURSES, QUIZZES, STUDENTS } from './content.js';
export { ALLOWED_FUNCTIONS, SqlRefusal, screenQuery } from './sql-guard.js';
export { ReadOnlySqlRunner, type SqlJob, type SqlRun, type SqlRunnerOptions } from './sql-runner.js';
export {
  type AcademyOpenOptions,
  type AcademySystem,
  type AcademySystemOptions,
  createAcademySystem,
  migrateAcademy,
  openAcademySystem,
} from './system.js';
