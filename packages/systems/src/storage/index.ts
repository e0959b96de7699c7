export { checkDataDir, type DataDirCheck, dataDir, dataDirUsable, dataFile } from './data-dir.js';
export { StorageError, type StorageProblem, storageProblem } from './errors.js';
export {
  openPostgres,
  type PgDatabase,
  type PgOpenOptions,
  type PgQueries,
  sqlIdentifier,
} from './postgres.js';
export {
  type OpenOptions,
  openDatabase,
  type SqlDatabase,
  type SqlStatement,
  type SqlValue,
} from './sqlite.js';
export { type SqliteTurns, sqliteTurns } from './sqlite-turns.js';
