export { checkDataDir, type DataDirCheck, dataDir, dataDirUsable, dataFile } from './data-dir.js';
export { StorageError, type StorageProblem, storageProblem } from './errors.js';
export {
  type OpenOptions,
  openDatabase,
  type SqlDatabase,
  type SqlStatement,
  type SqlValue,
} from './sqlite.js';
