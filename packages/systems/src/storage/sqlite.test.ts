import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkDataDir, dataDir } from './data-dir.js';
import { StorageError } from './errors.js';
import { openDatabase } from './sqlite.js';

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-sqlite-'));
  dirs.push(dir);
  return join(dir, 'nested', 'test.db');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const MIGRATIONS = [
  'CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)',
  'ALTER TABLE item ADD COLUMN qty INTEGER NOT NULL DEFAULT 0',
];

describe('openDatabase', () => {
  it('creates the file, runs migrations once and records the schema version', () => {
    const file = tempFile();
    const db = openDatabase(file, { migrations: MIGRATIONS });
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 2 });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.prepare('INSERT INTO item (name, qty) VALUES (?, ?)').run('antena', 3);
    db.close();
    const again = openDatabase(file, { migrations: MIGRATIONS });
    expect(again.prepare('SELECT name, qty FROM item').all()).toEqual([{ name: 'antena', qty: 3 }]);
    again.close();
  });

  it('refuses a database written by a newer build', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS }).close();
    expect(() => openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) })).toThrow(/newer than this build/);
  });

  it('commits a transaction whole or not at all', () => {
    const db = openDatabase(tempFile(), { migrations: MIGRATIONS });
    const insert = db.prepare('INSERT INTO item (name) VALUES (?)');
    expect(() =>
      db.transaction(() => {
        insert.run('a');
        insert.run('a');
      }),
    ).toThrow();
    expect(db.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 0 });
    db.transaction(() => insert.run('b'));
    expect(db.prepare('SELECT count(*) AS n FROM item').get()).toEqual({ n: 1 });
    db.close();
  });

  it('opens read-only connections that refuse every write at the engine', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS }).close();
    const ro = openDatabase(file, { readonly: true });
    expect(() => ro.prepare("INSERT INTO item (name) VALUES ('x')").run()).toThrow(/readonly|read-only/i);
    ro.close();
  });
});

/**
 * Makes `dir` really unwritable and returns how to undo it: chmod for a normal user; for root (who ignores
 * permission bits) the immutable attribute, which binds root too.
 */
function readOnly(dir: string): () => void {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    return () => chmodSync(dir, 0o755);
  }
  execFileSync('chattr', ['+i', dir]);
  return () => execFileSync('chattr', ['-i', dir]);
}

function failure(work: () => unknown): StorageError {
  try {
    work();
  } catch (error) {
    if (error instanceof StorageError) return error;
    throw error;
  }
  throw new Error('expected a StorageError');
}

describe('storage failures, said plainly', () => {
  it('reports a real SQLITE_FULL as a full disk, not as "cannot rollback", and keeps what was there', () => {
    const db = openDatabase(tempFile(), { migrations: MIGRATIONS });
    db.prepare('INSERT INTO item (name) VALUES (?)').run('antena');
    // A page cap makes the engine hit SQLITE_FULL for real, mid-transaction.
    const pages = db.prepare('PRAGMA page_count').get<{ page_count: number }>()!.page_count;
    db.exec(`PRAGMA max_page_count = ${pages + 2}`);
    const insert = db.prepare('INSERT INTO item (name) VALUES (?)');
    const full = failure(() =>
      db.transaction(() => {
        for (let i = 0; i < 100; i++) insert.run(`${i}-${'x'.repeat(4_000)}`);
      }),
    );
    expect(full.problem).toBe('disco_lleno');
    expect(full.message).toMatch(/^El disco del servidor está lleno: no se pudo guardar/);
    expect(full.message).not.toMatch(/rollback|unos minutos/);
    expect(full.driverMessage).toMatch(/full/i);
    expect(db.prepare('SELECT name FROM item').all()).toEqual([{ name: 'antena' }]);
    db.close();
  });

  it('caps every database at CODE_CLUSTER_SQLITE_MAX_PAGES', () => {
    const previous = process.env.CODE_CLUSTER_SQLITE_MAX_PAGES;
    process.env.CODE_CLUSTER_SQLITE_MAX_PAGES = '8';
    try {
      const db = openDatabase(tempFile(), { migrations: MIGRATIONS });
      expect(db.prepare('PRAGMA max_page_count').get()).toEqual({ max_page_count: 8 });
      db.close();
    } finally {
      if (previous === undefined) delete process.env.CODE_CLUSTER_SQLITE_MAX_PAGES;
      else process.env.CODE_CLUSTER_SQLITE_MAX_PAGES = previous;
    }
  });

  it('reports a data dir that cannot be written as such, for a new and an existing database', () => {
    const file = tempFile();
    openDatabase(file, { migrations: MIGRATIONS }).close();
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    const undo = readOnly(join(file, '..'));
    try {
      const existing = failure(() => openDatabase(file, { migrations: MIGRATIONS }));
      expect(['no_se_abre', 'sin_escritura']).toContain(existing.problem);
      expect(existing.message).toContain('(CODE_CLUSTER_DATA_DIR)');
      expect(existing.message).not.toContain(file);
      const nested = failure(() => openDatabase(join(file, '..', 'sub', 'x.db'), { migrations: MIGRATIONS }));
      expect(nested.problem).toBe('sin_escritura');
      expect(nested.message).toMatch(
        /^El directorio de datos del servidor \(CODE_CLUSTER_DATA_DIR\) no admite escritura/,
      );
      const check = checkDataDir(join(file, '..'));
      expect(check).toMatchObject({ ok: false, problem: 'sin_escritura' });
      expect(check.ok || check.line).toContain(`the data dir ${join(file, '..')} is not writable`);
    } finally {
      undo();
    }
  });

  it('checks a data dir at start: fine, or unwritable when it sits under a file', () => {
    const dir = join(tempFile(), '..');
    expect(checkDataDir(dir)).toEqual({ ok: true });
    writeFileSync(join(dir, 'plain-file'), 'x');
    const check = checkDataDir(join(dir, 'plain-file', 'data'));
    expect(check).toMatchObject({ ok: false, problem: 'sin_escritura' });
    expect(check.ok || check.line).toMatch(/not writable \(ENOTDIR\): give this user write access/);
  });
});

describe('dataDir', () => {
  it('prefers CODE_CLUSTER_DATA_DIR, then XDG_DATA_HOME', () => {
    expect(dataDir({ CODE_CLUSTER_DATA_DIR: '/tmp/x' })).toBe('/tmp/x');
    expect(dataDir({ XDG_DATA_HOME: '/var/data' })).toBe('/var/data/code-cluster');
    expect(dataDir({})).toMatch(/\.local\/share\/code-cluster$/);
  });
});
