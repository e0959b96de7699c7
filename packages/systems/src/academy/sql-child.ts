/**
 * The program of the analytics child process. It is launched as `node -e "(<this function>)(config)"`:
 * a bundled server is one file with no module to fork, so the function must be self-contained (no
 * imports, no outer variables) and is shipped as its own source text.
 *
 * The engine judges every statement: the database is opened read-only (the engine refuses every write)
 * with `query_only`; SQLite must report the statement a reader (`reader`/`readonly`); and the program
 * SQLite compiled for it (EXPLAIN) must open nothing for writing, start no write transaction, call only
 * allowed functions, read no hidden column (quiz answers, students' responses) and use no virtual table
 * but json_each/json_tree. The parent kills the child at the deadline; a watchdog thread kills it too if
 * a query outlives twice the deadline, if the process grows past its memory bound, or if the parent
 * disappears, so a runaway query can never outlive the server that started it.
 */
export interface SqlChildConfig {
  file: string;
  /** Absolute path of better-sqlite3, resolved by the parent; null where `node:sqlite` is used. */
  betterSqlite3: string | null;
  rowLimit: number;
  /** Bound of the rows' JSON, in bytes: rows past it are not sent (the reply says so). */
  byteLimit: number;
  deadlineMs: number;
  /** The child kills itself when its resident memory passes this many bytes. */
  maxRssBytes: number;
  allowedFunctions: readonly string[];
  /** Table → columns no query may read (they are exposed through views without them). */
  hiddenColumns: Readonly<Record<string, readonly string[]>>;
}

export interface SqlChildRequest {
  id: number;
  sql: string;
  params: Array<string | number | null>;
  /** Parameters written ?NNN: bound by number (better-sqlite3 takes those as an object). */
  numbered: boolean;
  /** The names the text uses (from the parent's SQLite tokenizer), ASCII-lowercased. */
  names: string[];
  limit: number;
}

export type SqlChildReply =
  | {
      id: number;
      ok: true;
      columns: string[];
      rows: Array<Array<string | number | null>>;
      /** Why rows are missing: more than the row limit, or past the byte limit; false when all are here. */
      truncated: false | 'rows' | 'bytes';
      bytes: number;
    }
  | { id: number; ok: false; kind: 'refused' | 'error'; message: string };

export function sqlChildMain(config: SqlChildConfig): void {
  const threads = require('node:worker_threads');
  // [0]: 1 while a query runs; [1]: sequence number of the running query.
  const state = new Int32Array(new SharedArrayBuffer(8));
  const watchdog = new threads.Worker(
    `const { workerData } = require('node:worker_threads');
     const { state, parentPid, limitMs, maxRss } = workerData;
     let seq = -1, since = 0;
     setInterval(() => {
       if (process.ppid !== parentPid) process.kill(process.pid, 'SIGKILL');
       // SIGTERM (the parent never sends it) tells the parent why: too much memory.
       if (process.memoryUsage.rss() > maxRss) process.kill(process.pid, 'SIGTERM');
       if (Atomics.load(state, 0) !== 1) { seq = -1; return; }
       const now = Date.now(), current = Atomics.load(state, 1);
       if (current !== seq) { seq = current; since = now; }
       else if (now - since > limitMs) process.kill(process.pid, 'SIGKILL');
     }, 50);`,
    {
      eval: true,
      workerData: {
        state,
        parentPid: process.ppid,
        limitMs: config.deadlineMs * 2,
        maxRss: config.maxRssBytes,
      },
    },
  );
  watchdog.unref();

  type Row = Record<string, unknown>;
  type Statement = {
    reader?: boolean;
    readonly?: boolean;
    /** node:sqlite: the text of the one statement prepared; SQL after it is silently ignored. */
    sourceSQL?: string;
    columns?: () => Array<{ name: string }>;
    raw?: (on: boolean) => Statement;
    /** node:sqlite (Node 22.16+): rows as arrays, so two columns of one name both arrive. */
    setReturnArrays?: (on: boolean) => void;
    iterate: (...params: unknown[]) => Iterable<unknown>;
    all: (...params: unknown[]) => unknown[];
  };
  let db: { prepare(sql: string): Statement; exec(sql: string): void } | undefined;
  /** Root page → what it stores, for the tables with hidden columns and their indexes. */
  const hiddenAt = new Map<number, { table: string; hidden: Set<number> }>();
  let modules = new Set<string>();
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
    const all = (sql: string, ...params: unknown[]) => db!.prepare(sql).all(...params) as Row[];
    for (const [table, columns] of Object.entries(config.hiddenColumns)) {
      const cids = all('SELECT cid, name FROM pragma_table_info(?)', table);
      const hidden = new Set(cids.filter((c) => columns.includes(String(c.name))).map((c) => Number(c.cid)));
      for (const object of all(
        "SELECT type, name, rootpage FROM sqlite_schema WHERE tbl_name = ? AND type IN ('table', 'index')",
        table,
      )) {
        if (object.type === 'table') {
          hiddenAt.set(Number(object.rootpage), { table, hidden });
          continue;
        }
        // An index cursor reads its own columns by position (seqno): map them to the table's.
        const positions = all('SELECT seqno, cid FROM pragma_index_xinfo(?)', object.name);
        const indexHidden = new Set(
          positions.filter((p) => hidden.has(Number(p.cid))).map((p) => Number(p.seqno)),
        );
        hiddenAt.set(Number(object.rootpage), { table, hidden: indexHidden });
      }
    }
    modules = new Set(all('SELECT name FROM pragma_module_list').map((m) => String(m.name).toLowerCase()));
    return db!;
  };

  /** Opcodes that write, change the schema or the session, or run other programs. */
  const WRITING = new Set([
    ...['OpenWrite', 'CreateBtree', 'Destroy', 'Clear', 'ParseSchema', 'DropTable', 'DropIndex'],
    ...['DropTrigger', 'SetCookie', 'VUpdate', 'VCreate', 'VDestroy', 'VRename', 'VBegin', 'Vacuum'],
    ...['IncrVacuum', 'JournalMode', 'Checkpoint', 'LoadAnalysis', 'Program', 'SqlExec', 'AutoCommit'],
    ...['Savepoint', 'IntegrityCk', 'Expire', 'MaxPgcnt'],
  ]);
  const CALLS = new Set([
    'Function',
    'PureFunc',
    'AggStep',
    'AggStep1',
    'AggInverse',
    'AggValue',
    'AggFinal',
  ]);
  const allowed = new Set(config.allowedFunctions);
  const VIRTUAL_OK = new Set(['json_each', 'json_tree']);

  /** Why the compiled program may not run, or undefined when it only reads what it may. */
  const judge = (program: Row[], names: string[]): string | undefined => {
    const nameSet = new Set(names);
    const forbiddenModule = names.find((n) => modules.has(n) && !VIRTUAL_OK.has(n));
    if (forbiddenModule) {
      return `la tabla virtual ${forbiddenModule} no está disponible en consulta_sql (solo json_each y json_tree).`;
    }
    const cursors = new Map<number, { table: string; hidden: Set<number> }>();
    for (const op of program) {
      const opcode = String(op.opcode);
      if (WRITING.has(opcode) || (opcode === 'Transaction' && Number(op.p2) !== 0)) {
        return `SQLite compiló la sentencia con una operación que no es de lectura (${opcode}).`;
      }
      if (CALLS.has(opcode)) {
        const name = /^(.+)\(-?\d+\)$/.exec(String(op.p4 ?? ''))?.[1]?.toLowerCase();
        if (name === undefined || !allowed.has(name)) {
          return (
            `la función '${name ?? String(op.p4)}' no está permitida. Se admiten funciones puras de SQLite ` +
            '(agregados, texto, números, fechas, JSON y ventanas), no las que cargan extensiones, tocan ' +
            'ficheros o generan blobs de tamaño arbitrario (randomblob, zeroblob).'
          );
        }
      } else if (opcode === 'OpenRead' || opcode === 'ReopenIdx') {
        const target = Number(op.p3) === 0 ? hiddenAt.get(Number(op.p2)) : undefined;
        if (target) cursors.set(Number(op.p1), target);
        else cursors.delete(Number(op.p1));
      } else if (opcode === 'Column' || opcode === 'RowData') {
        // RowData copies a whole record: harmless on the cursors of a CTE's queue, not on a hidden table.
        const target = cursors.get(Number(op.p1));
        if (target && (opcode === 'RowData' ? target.hidden.size > 0 : target.hidden.has(Number(op.p2)))) {
          return (
            'la consulta lee columnas ocultas (respuestas de cuestionarios o de estudiantes). Usa las vistas ' +
            'preguntas e intentos, que no las tienen.'
          );
        }
      } else if (opcode === 'VOpen' && ![...VIRTUAL_OK].some((n) => nameSet.has(n))) {
        return 'la consulta usa una tabla virtual que no es json_each ni json_tree.';
      }
    }
    return undefined;
  };

  const cell = (value: unknown): string | number | null => {
    if (value === null || value === undefined) return null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
    if (typeof value === 'string') return value;
    if (value instanceof Uint8Array) return `<blob ${value.byteLength} bytes>`;
    return String(value);
  };
  const refused = (id: number, message: string): SqlChildReply => ({
    id,
    ok: false,
    kind: 'refused',
    message,
  });

  const answer = (message: SqlChildRequest): SqlChildReply => {
    const database = db ?? open();
    const statement = database.prepare(message.sql);
    // better-sqlite3 refuses a second statement; node:sqlite prepares the first and drops the rest, so the
    // rest (beyond comments, blanks and semicolons) is refused here instead of passing unnoticed.
    const tail =
      statement.sourceSQL !== undefined && message.sql.startsWith(statement.sourceSQL)
        ? message.sql.slice(statement.sourceSQL.length)
        : '';
    if (/\S/.test(tail.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|;/g, ''))) {
      return refused(message.id, 'solo se admite una sentencia: después de la primera hay más SQL.');
    }
    const reader = statement.reader ?? (statement.columns ? statement.columns().length > 0 : true);
    if (!reader || statement.readonly === false) {
      return refused(message.id, 'SQLite indica que la sentencia no es una lectura que devuelve filas.');
    }
    // better-sqlite3 binds ?NNN by number only from an object; node:sqlite binds positions either way.
    const params =
      message.numbered && config.betterSqlite3
        ? [Object.fromEntries(message.params.map((value, i) => [i + 1, value]))]
        : message.params;
    const program = database.prepare(`EXPLAIN ${message.sql}`).all(...params) as Row[];
    const why = judge(program, message.names);
    if (why) return refused(message.id, why);

    const columns = statement.columns ? statement.columns().map((c) => c.name) : [];
    const rows: Array<Array<string | number | null>> = [];
    let truncated: false | 'rows' | 'bytes' = false;
    // '[' plus, per row, its JSON and the ',' or ']' after it: the size of the rows as JSON.
    let bytes = 1;
    statement.setReturnArrays?.(true);
    const source = statement.raw ? statement.raw(true).iterate(...params) : statement.iterate(...params);
    for (const row of source) {
      if (rows.length === Math.min(message.limit, config.rowLimit)) {
        truncated = 'rows';
        break;
      }
      const values = (Array.isArray(row) ? row : Object.values(row as object)).map(cell);
      const size = Buffer.byteLength(JSON.stringify(values)) + 1;
      if (bytes + size > config.byteLimit) {
        truncated = 'bytes';
        break;
      }
      bytes += size;
      if (columns.length === 0 && rows.length === 0 && !Array.isArray(row)) {
        columns.push(...Object.keys(row as object));
      }
      rows.push(values);
    }
    return { id: message.id, ok: true, columns, rows, truncated, bytes: Math.max(bytes, 2) };
  };

  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: SqlChildRequest) => {
    let reply: SqlChildReply;
    Atomics.add(state, 1, 1);
    Atomics.store(state, 0, 1);
    try {
      reply = answer(message);
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
