import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { asStorageError, StorageError } from './errors.js';

/**
 * The one SQLite seam of the systems: better-sqlite3 on Node 20, `node:sqlite` where the runtime has it
 * (Claude Desktop's bundled Node 24, where a better-sqlite3 built for Node 20 cannot load). Handlers never
 * touch a driver: each system keeps its SQL in one store module on top of this.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

export interface SqlStatement {
  run(...params: SqlValue[]): { changes: number; lastInsertRowid: number | bigint };
  get<T = Record<string, unknown>>(...params: SqlValue[]): T | undefined;
  all<T = Record<string, unknown>>(...params: SqlValue[]): T[];
}

export interface SqlDatabase {
  readonly file: string;
  readonly driver: 'node:sqlite' | 'better-sqlite3';
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  /** Runs `work` in one IMMEDIATE transaction: all of it is committed (durably) or none. */
  transaction<T>(work: () => T): T;
  close(): void;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Schema migrations in order; `PRAGMA user_version` records how many have run. */
  migrations?: readonly string[];
  /** How long a writer waits for another process's lock, ms. */
  busyTimeoutMs?: number;
}

/** CommonJS `require` in a bundled server, or one made for this module when running as ESM. */
function load(id: string): unknown {
  return (typeof require === 'function' ? require : createRequire(import.meta.url))(id);
}

type NativeStatement = {
  run(...p: unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint };
  get(...p: unknown[]): unknown;
  all(...p: unknown[]): unknown[];
};
type NativeDatabase = { exec(sql: string): unknown; prepare(sql: string): NativeStatement; close(): void };

function openNative(file: string, readonly: boolean): { db: NativeDatabase; driver: SqlDatabase['driver'] } {
  const builtin = loadBuiltin();
  if (builtin) {
    return {
      db: new builtin.DatabaseSync(file, { readOnly: readonly }) as NativeDatabase,
      driver: 'node:sqlite',
    };
  }
  const BetterSqlite3 = load('better-sqlite3') as new (
    f: string,
    o: { readonly: boolean; fileMustExist: boolean },
  ) => NativeDatabase;
  return { db: new BetterSqlite3(file, { readonly, fileMustExist: readonly }), driver: 'better-sqlite3' };
}

function loadBuiltin(): { DatabaseSync: new (f: string, o: { readOnly: boolean }) => unknown } | undefined {
  if (process.env.CODE_CLUSTER_SQLITE_DRIVER === 'better-sqlite3') return undefined;
  try {
    // Not an import: on Node 20 the module does not exist, and bundlers must not try to resolve it.
    return process.getBuiltinModule?.('node:sqlite') as never;
  } catch {
    return undefined;
  }
}

/** Runs `work`, turning a failure of the storage itself (disk full, read-only, cannot open) into a StorageError. */
function guarded<T>(file: string, work: () => T, readonly = false): T {
  try {
    return work();
  } catch (error) {
    const translated = asStorageError(error, file);
    // A read-only connection refuses writes by design: that is the caller's answer, not a storage fault.
    if (readonly && translated instanceof StorageError && translated.problem === 'sin_escritura') throw error;
    throw translated;
  }
}

/**
 * `CODE_CLUSTER_SQLITE_MAX_PAGES`: a cap on each database, in pages of 4 KiB, for an operator who shares a
 * disk; reaching it is a real SQLITE_FULL, which is also how the disk-full path is tested.
 */
function maxPages(): number | undefined {
  const value = Number(process.env.CODE_CLUSTER_SQLITE_MAX_PAGES);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

export function openDatabase(file: string, options: OpenOptions = {}): SqlDatabase {
  return guarded(file, () => open(file, options));
}

function open(file: string, options: OpenOptions): SqlDatabase {
  if (file !== ':memory:' && !options.readonly) mkdirSync(dirname(file), { recursive: true });
  const { db, driver } = openNative(file, options.readonly ?? false);
  const busyTimeoutMs = Math.trunc(options.busyTimeoutMs ?? 5_000);
  db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const pages = maxPages();
  if (pages) db.exec(`PRAGMA max_page_count = ${pages}`);
  if (!options.readonly) {
    // WAL lets several server processes read while one writes; FULL makes a commit survive power loss.
    switchToWal(db, busyTimeoutMs);
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
  }

  let depth = 0;
  const guard = <T>(work: () => T): T => guarded(file, work, options.readonly);
  const database: SqlDatabase = {
    file,
    driver,
    exec: (sql) => {
      guard(() => db.exec(sql));
    },
    prepare(sql) {
      const statement = guard(() => db.prepare(sql));
      return {
        run: (...params) =>
          guard(() => {
            const result = statement.run(...params);
            return { changes: Number(result.changes), lastInsertRowid: result.lastInsertRowid };
          }),
        get: <T>(...params: SqlValue[]) =>
          guard(() => (statement.get(...params) ?? undefined) as T | undefined),
        all: <T>(...params: SqlValue[]) => guard(() => statement.all(...params) as T[]),
      };
    },
    transaction(work) {
      if (depth > 0) return work();
      guard(() => db.exec('BEGIN IMMEDIATE'));
      depth++;
      try {
        const result = work();
        guard(() => db.exec('COMMIT'));
        return result;
      } catch (error) {
        try {
          db.exec('ROLLBACK');
        } catch {
          // SQLite already rolled back on its own (it does on SQLITE_FULL and I/O errors): the first
          // error is the one that says what happened, not "cannot rollback - no transaction is active".
        }
        throw error;
      } finally {
        depth--;
      }
    },
    close: () => db.close(),
  };
  if (options.migrations && !options.readonly) migrate(database, options.migrations);
  return database;
}

/**
 * Switching a new file to WAL reads its header and then upgrades to a write, and SQLite answers a read
 * upgrading to a write with SQLITE_BUSY at once, bypassing the busy handler: two processes creating the
 * same store together saw "database is locked" within milliseconds. So this one statement waits for the
 * other writer itself, as long as the busy timeout would have.
 */
function switchToWal(db: NativeDatabase, busyTimeoutMs: number): void {
  const deadline = Date.now() + busyTimeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waitMs = 5; ; waitMs = Math.min(2 * waitMs, 100)) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() + waitMs > deadline) throw error;
      Atomics.wait(pause, 0, 0, waitMs);
    }
  }
}

/** SQLITE_BUSY from either driver: better-sqlite3 names the code, node:sqlite gives the number. */
function isBusy(error: unknown): boolean {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  return (
    (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) ||
    (typeof errcode === 'number' && (errcode & 0xff) === 5)
  );
}

function migrate(db: SqlDatabase, migrations: readonly string[]): void {
  db.transaction(() => {
    const current = db.prepare('PRAGMA user_version').get<{ user_version: number }>()?.user_version ?? 0;
    if (current > migrations.length) {
      throw new Error(
        `${db.file} has schema version ${current}, newer than this build knows (${migrations.length})`,
      );
    }
    for (let version = current; version < migrations.length; version++) {
      db.exec(migrations[version]!);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    }
  });
}
