// The PostgreSQL seam on the test engine: migrations run once even when replicas open together, one
// statement per query, and an engine that does not answer is a rejection at open, not a hang.
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from './postgres.js';

let db: TestDatabase | undefined;
beforeAll(async () => {
  db = await freshDatabase('the PostgreSQL seam (packages/systems/src/storage/postgres.test.ts)');
});
afterAll(() => db?.drop());

const MIGRATIONS = [
  `CREATE TABLE item (id int8 PRIMARY KEY, name text NOT NULL);
   INSERT INTO item VALUES (1, 'uno');`,
  'ALTER TABLE item ADD COLUMN size integer',
];

describe('openPostgres', () => {
  it('runs each migration once when two replicas open the same schema at the same moment', async (ctx) => {
    if (!db) return ctx.skip();
    const open = () => openPostgres({ url: db!.url, system: 'seam', migrations: MIGRATIONS });
    const [a, b] = await Promise.all([open(), open()]);
    try {
      // A second run of migration 1 would have failed on the primary key; int8 comes back as a number.
      expect(await a.rows('SELECT * FROM item')).toEqual([{ id: 1, name: 'uno', size: null }]);
      expect(await b.row('SELECT version FROM schema_version')).toEqual({ version: 2 });
      const again = await open();
      expect(await again.row('SELECT count(*)::int8 AS n FROM item')).toEqual({ n: 1 });
      await again.close();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses a schema newer than the build, naming both versions', async (ctx) => {
    if (!db) return ctx.skip();
    const first = await openPostgres({ url: db.url, system: 'newer', migrations: MIGRATIONS });
    await first.close();
    await expect(
      openPostgres({ url: db.url, system: 'newer', migrations: MIGRATIONS.slice(0, 1) }),
    ).rejects.toThrow('schema newer has version 2, newer than this build knows (1)');
  });

  it('runs one statement per query: a second one is refused, not run', async (ctx) => {
    if (!db) return ctx.skip();
    const seam = await openPostgres({ url: db.url, system: 'single', migrations: MIGRATIONS });
    try {
      await expect(seam.run("SELECT 1; UPDATE item SET name = 'dos'")).rejects.toThrow(/multiple commands/);
      expect(await seam.row('SELECT name FROM item')).toEqual({ name: 'uno' });
    } finally {
      await seam.close();
    }
  });

  it('rolls a failed transaction back whole', async (ctx) => {
    if (!db) return ctx.skip();
    const seam = await openPostgres({ url: db.url, system: 'atomic', migrations: MIGRATIONS });
    try {
      await expect(
        seam.transaction(async (tx) => {
          await tx.run("INSERT INTO item VALUES (2, 'dos')");
          await tx.run("INSERT INTO item VALUES (1, 'otra vez')");
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await seam.rows('SELECT id FROM item')).toEqual([{ id: 1 }]);
    } finally {
      await seam.close();
    }
  });

  it('rejects at open, within the connect timeout, when nothing answers at the URL', async () => {
    await expect(
      openPostgres({ url: 'postgres://postgres@127.0.0.1:1/nada', system: 'lejos', connectTimeoutMs: 500 }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
