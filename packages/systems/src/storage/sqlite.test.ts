import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataDir } from './data-dir.js';
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

describe('dataDir', () => {
  it('prefers CODE_CLUSTER_DATA_DIR, then XDG_DATA_HOME', () => {
    expect(dataDir({ CODE_CLUSTER_DATA_DIR: '/tmp/x' })).toBe('/tmp/x');
    expect(dataDir({ XDG_DATA_HOME: '/var/data' })).toBe('/var/data/code-cluster');
    expect(dataDir({})).toMatch(/\.local\/share\/code-cluster$/);
  });
});
