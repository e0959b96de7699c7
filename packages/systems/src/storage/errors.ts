/**
 * Storage failures a model and an operator can act on, instead of a driver's English (or a second error
 * that hides the first). `domain: true` and `status: 507` are read duck-typed by the REST seam: the router
 * answers 507 Insufficient Storage with this message, and the REST client neither retries it nor tells
 * the model to "try again in a few minutes" (retrying cannot help until the operator acts).
 */
export type StorageProblem = 'disco_lleno' | 'sin_escritura' | 'no_se_abre';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  readonly domain = true;
  readonly status = 507;
  constructor(
    readonly problem: StorageProblem,
    /** The database file, for the operator's log; never shown to the model. */
    readonly file: string,
    readonly driverMessage: string,
  ) {
    super(MESSAGES[problem]);
    // Logs print the stack: there the operator reads the file and the driver's own words, not the
    // model's message.
    const frames = this.stack?.split('\n').slice(1).join('\n') ?? '';
    this.stack = `StorageError (${problem}) on ${file}: ${driverMessage}\n${frames}`;
  }
}

const MESSAGES: Record<StorageProblem, string> = {
  disco_lleno:
    'El disco del servidor está lleno: no se pudo guardar y no se guardó nada a medias. Reintentar no ' +
    'servirá hasta que el operador libere espacio en el directorio de datos (CODE_CLUSTER_DATA_DIR); ' +
    'díselo al usuario. Las consultas de lectura siguen funcionando.',
  sin_escritura:
    'El directorio de datos del servidor (CODE_CLUSTER_DATA_DIR) no admite escritura, así que no se puede ' +
    'guardar nada. Reintentar no servirá: el operador debe dar permiso de escritura a ese directorio o ' +
    'apuntar CODE_CLUSTER_DATA_DIR a otro; díselo al usuario.',
  no_se_abre:
    'No se puede abrir la base de datos del servidor: su directorio de datos (CODE_CLUSTER_DATA_DIR) no ' +
    'existe, no se puede crear o no admite escritura. Reintentar no servirá: el operador debe corregir ese ' +
    'directorio; díselo al usuario.',
};

/** SQLite's primary result codes that say the storage, not the statement, failed. */
const PRIMARY_CODES: Record<number, StorageProblem> = {
  13: 'disco_lleno',
  8: 'sin_escritura',
  14: 'no_se_abre',
};
/** File-system errors met while creating the data dir. */
const ERRNO: Record<string, StorageProblem> = {
  ENOSPC: 'disco_lleno',
  EDQUOT: 'disco_lleno',
  EACCES: 'sin_escritura',
  EPERM: 'sin_escritura',
  EROFS: 'sin_escritura',
  ENOTDIR: 'no_se_abre',
  EEXIST: 'no_se_abre',
};

/**
 * The storage problem behind a driver error, or undefined for any other failure (a constraint, a bug).
 * better-sqlite3 names the code (`SQLITE_FULL`, `SQLITE_READONLY_DBMOVED`…); node:sqlite gives the
 * extended result code as a number (`errcode`), whose low byte is the primary one.
 */
export function storageProblem(error: unknown): StorageProblem | undefined {
  if (error instanceof StorageError) return error.problem;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  if (typeof errcode === 'number') return PRIMARY_CODES[errcode & 0xff];
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL') return 'disco_lleno';
  if (code.startsWith('SQLITE_READONLY')) return 'sin_escritura';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'no_se_abre';
  return ERRNO[code];
}

/** `error` as a StorageError when it is one, else unchanged. */
export function asStorageError(error: unknown, file: string): unknown {
  if (error instanceof StorageError) return error;
  const problem = storageProblem(error);
  return problem
    ? new StorageError(problem, file, error instanceof Error ? error.message : String(error))
    : error;
}
