export { dataDir } from './data-dir.js';
export {
  type OpenOptions,
  openDatabase,
  type SqlDatabase,
  type SqlStatement,
  type SqlValue,
} from './sqlite.js';
