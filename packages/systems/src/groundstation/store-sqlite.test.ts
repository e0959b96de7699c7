import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../storage/index.js';
import { openGroundstationStore } from './store-sqlite.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'code-gs-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Another process that holds the write lock of `file` for `holdMs`, as a second server creating the same
 * store does; resolves once it holds the lock.
 */
function holdWriteLock(file: string, holdMs: number) {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  // The same driver the store picks: node:sqlite where the runtime has it, else better-sqlite3.
  const script = `
    const builtin = process.getBuiltinModule?.('node:sqlite');
    const Driver = builtin ? builtin.DatabaseSync : require(${JSON.stringify(driver)});
    const db = new Driver(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${holdMs});`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code} before locking`)));
  });
  return { locked, exited };
}

describe('openGroundstationStore', () => {
  it('waits for another process that holds the write lock of a new file instead of failing at once', async () => {
    // Switching a new file to WAL is a read upgraded to a write, which SQLite refuses at once with
    // SQLITE_BUSY, past the busy handler: this is how two servers creating one store got "database is
    // locked" within milliseconds.
    const file = join(dir, 'groundstation.db');
    writeFileSync(file, '');
    const holder = holdWriteLock(file, 400);
    await holder.locked;
    const store = openGroundstationStore(file);
    try {
      expect(await store.activeContacts('orbiteye-mx', 0, Number.MAX_SAFE_INTEGER)).toEqual([]);
    } finally {
      await store.close();
    }
    expect(await holder.exited).toBe(0);
  });

  it("upgrades a store of the previous build: its windows are kept as the operator's, and cl's is seeded", async () => {
    // The schema version 1 files on users' disks: maintenance rows without source or cancellation.
    const file = join(dir, 'v1.db');
    const v1 = openDatabase(file, {
      migrations: [
        `CREATE TABLE contact (id TEXT PRIMARY KEY, station TEXT NOT NULL, antenna TEXT NOT NULL,
           norad_id INTEGER NOT NULL, start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL, status TEXT NOT NULL,
           created_ms INTEGER NOT NULL, cancelled_ms INTEGER);
         CREATE TABLE maintenance (id TEXT PRIMARY KEY, station TEXT NOT NULL, start_ms INTEGER NOT NULL,
           end_ms INTEGER NOT NULL, reason TEXT NOT NULL, created_ms INTEGER NOT NULL);`,
      ],
    });
    v1.prepare('INSERT INTO maintenance VALUES (?, ?, ?, ?, ?, ?)').run(
      'mt-0123456789ab',
      'orbiteye-cl',
      Date.parse('2026-12-02T00:00:00Z'),
      Date.parse('2026-12-03T00:00:00Z'),
      'Revisión del rotor',
      0,
    );
    v1.close();
    const store = openGroundstationStore(file);
    try {
      const windows = await store.maintenanceEndingAfter('orbiteye-cl', Date.parse('2026-12-01T00:00:00Z'));
      expect(windows.map((w) => [w.id, w.source, w.cancelled_ms])).toEqual([
        ['mt-00000000c1a0', 'referencia', null],
        ['mt-0123456789ab', 'operador', null],
      ]);
    } finally {
      await store.close();
    }
  });

  it('keeps a call of another request out of an open transaction until it commits or rolls back', async () => {
    const store = openGroundstationStore(join(dir, 'queue.db'));
    try {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const row = {
        id: 'ct-0000000000aa',
        station: 'orbiteye-mx',
        antenna: 'mx-s1',
        norad_id: 39035,
        start_ms: 1_000_000,
        end_ms: 2_000_000,
        status: 'programado' as const,
        created_ms: 0,
        cancelled_ms: null,
      };
      // A transaction that writes, then waits on something else (as a body that awaits may), then fails.
      const transaction = store.transaction(async (tx) => {
        await tx.insertContact(row);
        await gate;
        throw new Error('rolled back');
      });
      let read: unknown;
      const reading = store.getContact(row.id).then((found) => {
        read = found ?? 'none';
      });
      await new Promise((resolve) => setImmediate(resolve));
      // On the one connection, a read now would see the uncommitted row: it waits for the transaction.
      expect(read).toBeUndefined();
      release();
      await expect(transaction).rejects.toThrow('rolled back');
      await reading;
      expect(read).toBe('none');
    } finally {
      await store.close();
    }
  });
});
