/**
 * The program of the analytics child process. It is launched as `node -e "(<this function>)(config)"`:
 * a bundled server is one file with no module to fork, so the function must be self-contained (no
 * imports, no outer variables) and is shipped as its own source text.
 *
 * It opens the database read-only (the engine refuses every write), turns on `query_only`, and runs only
 * statements SQLite itself reports as readers. The parent kills it at the deadline; a watchdog thread
 * kills it too if a query outlives twice the deadline or the parent disappears, so a runaway query can
 * never outlive the server that started it.
 */
export interface SqlChildConfig {
  file: string;
  /** Absolute path of better-sqlite3, resolved by the parent; null where `node:sqlite` is used. */
  betterSqlite3: string | null;
  rowLimit: number;
  deadlineMs: number;
}

export type SqlChildReply =
  | {
      id: number;
      ok: true;
      columns: string[];
      rows: Array<Array<string | number | null>>;
      truncated: boolean;
    }
  | { id: number; ok: false; kind: 'refused' | 'error'; message: string };

export function sqlChildMain(config: SqlChildConfig): void {
  const threads = require('node:worker_threads');
  // [0]: 1 while a query runs; [1]: sequence number of the running query.
  const state = new Int32Array(new SharedArrayBuffer(8));
  const watchdog = new threads.Worker(
    `const { workerData } = require('node:worker_threads');
     const { state, parentPid, limitMs } = workerData;
     let seq = -1, since = 0;
     setInterval(() => {
       if (process.ppid !== parentPid) process.kill(process.pid, 'SIGKILL');
       if (Atomics.load(state, 0) !== 1) { seq = -1; return; }
       const now = Date.now(), current = Atomics.load(state, 1);
       if (current !== seq) { seq = current; since = now; }
       else if (now - since > limitMs) process.kill(process.pid, 'SIGKILL');
     }, 100);`,
    { eval: true, workerData: { state, parentPid: process.ppid, limitMs: config.deadlineMs * 2 } },
  );
  watchdog.unref();

  type Statement = {
    reader?: boolean;
    readonly?: boolean;
    /** node:sqlite: the text of the one statement prepared; SQL after it is silently ignored. */
    sourceSQL?: string;
    columns?: () => Array<{ name: string }>;
    raw?: (on: boolean) => Statement;
    iterate: (...params: unknown[]) => Iterable<unknown>;
    all: (...params: unknown[]) => unknown[];
  };
  let db: { prepare(sql: string): Statement; exec(sql: string): void } | undefined;
  const open = () => {
    if (config.betterSqlite3) {
      const Database = require(config.betterSqlite3);
      db = new Database(config.file, { readonly: true, fileMustExist: true });
    } else {
      const { DatabaseSync } = (
        process as unknown as { getBuiltinModule(id: string): never }
      ).getBuiltinModule('node:sqlite') as {
        DatabaseSync: new (f: string, o: object) => NonNullable<typeof db>;
      };
      db = new DatabaseSync(config.file, { readOnly: true });
    }
    db!.exec('PRAGMA query_only = ON');
    return db!;
  };
  const cell = (value: unknown): string | number | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
    if (typeof value === 'string') return value;
    if (value instanceof Uint8Array) return `<blob ${value.byteLength} bytes>`;
    return String(value);
  };

  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: { id: number; sql: string; params: unknown[]; limit: number }) => {
    let reply: SqlChildReply;
    Atomics.add(state, 1, 1);
    Atomics.store(state, 0, 1);
    try {
      const statement = (db ?? open()).prepare(message.sql);
      const reader = statement.reader ?? (statement.columns ? statement.columns().length > 0 : true);
      // better-sqlite3 refuses a second statement; node:sqlite prepares the first and drops the rest, so the
      // rest (beyond comments, blanks and semicolons) is refused here instead of passing unnoticed.
      const tail =
        statement.sourceSQL !== undefined && message.sql.startsWith(statement.sourceSQL)
          ? message.sql.slice(statement.sourceSQL.length)
          : '';
      if (/\S/.test(tail.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|;/g, ''))) {
        reply = {
          id: message.id,
          ok: false,
          kind: 'refused',
          message: 'Solo se admite una sentencia: después de la primera hay más SQL.',
        };
      } else if (!reader || statement.readonly === false) {
        reply = {
          id: message.id,
          ok: false,
          kind: 'refused',
          message: 'SQLite indica que la sentencia no es una lectura que devuelve filas.',
        };
      } else {
        const columns = statement.columns ? statement.columns().map((c) => c.name) : [];
        const rows: Array<Array<string | number | null>> = [];
        let truncated = false;
        const source = statement.raw
          ? statement.raw(true).iterate(...message.params)
          : statement.all(...message.params);
        for (const row of source) {
          if (rows.length === Math.min(message.limit, config.rowLimit)) {
            truncated = true;
            break;
          }
          const values = Array.isArray(row) ? row : Object.values(row as object);
          if (columns.length === 0 && rows.length === 0 && !Array.isArray(row))
            columns.push(...Object.keys(row as object));
          rows.push(values.map(cell));
        }
        reply = { id: message.id, ok: true, columns, rows, truncated };
      }
    } catch (error) {
      reply = {
        id: message.id,
        ok: false,
        kind: 'error',
        message: String((error as Error).message ?? error),
      };
    } finally {
      Atomics.store(state, 0, 0);
    }
    process.send!(reply);
  });
  process.send!({ ready: true });
}
