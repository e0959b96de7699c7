// `code-systems migrate lab` and `code-systems lab --database-url` as an operator runs them: the built bin
// (packages/systems/dist/bin.js), on PostgreSQL and on SQLite, twice (idempotent), and on a URL where
// nothing listens (exit 2, one line). The password of a URL is never printed.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

let db: TestDatabase | undefined;
beforeAll(async () => {
  db = await freshDatabase('code-systems migrate lab (packages/systems/src/lab/migrate.test.ts)');
});
afterAll(() => db?.drop());
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built bin with a data dir of its own and none of the developer's LAB_* settings. */
function codeSystems(
  args: string[],
  dataDir = mkdtempSync(join(tmpdir(), 'code-lab-migrate-')),
): Promise<Run> {
  dirs.push(dataDir);
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('LAB_')));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...env, CODE_CLUSTER_DATA_DIR: dataDir } },
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

/** A port where nothing listens (taken and given back). */
function deadPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('code-systems migrate lab', () => {
  it('creates schema lab on PostgreSQL, then finds nothing to do, without printing the password', async (ctx) => {
    if (!db) return ctx.skip('no PostgreSQL here');
    const url = db.urlAs('postgres', 's3cret-pw');
    const first = await codeSystems(['migrate', 'lab', '--database-url', url]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(
      /^lab: PostgreSQL postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+ \(schema lab\) migrated from schema version 0 to 1\n$/,
    );
    const second = await codeSystems(['migrate', 'lab', '--database-url', url]);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    expect(second.stdout).toMatch(/ \(schema lab\) already at schema version 1, nothing to do\n$/);
    expect(first.stdout + second.stdout).not.toContain('s3cret-pw');
    const tables = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'lab' ORDER BY table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      'rule_result',
      'schema_version',
      'session',
      'submission',
    ]);
  });

  it('creates the SQLite file in the data dir without a URL, then finds nothing to do', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'code-lab-migrate-'));
    const first = await codeSystems(['migrate', 'lab'], dataDir);
    expect(first).toMatchObject({
      code: 0,
      stdout: `lab: SQLite ${join(dataDir, 'lab.db')} migrated from schema version 0 to 2\n`,
    });
    const second = await codeSystems(['migrate', 'lab'], dataDir);
    expect(second.stdout).toBe(
      `lab: SQLite ${join(dataDir, 'lab.db')} already at schema version 2, nothing to do\n`,
    );
  });

  it('exits 2 with one line naming the URL (no password) when nothing answers there', async () => {
    const port = await deadPort();
    const run = await codeSystems([
      'migrate',
      'lab',
      '--database-url',
      `postgres://postgres:s3cret-pw@127.0.0.1:${port}/x`,
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `code-systems: migrate lab: PostgreSQL postgres://postgres@127.0.0.1:${port}/x unusable (`,
    );
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(run.stderr).not.toContain('s3cret-pw');
  });
});

describe('code-systems lab --database-url', () => {
  it('exits 2 with one line naming LAB_DATABASE_URL (no password) when nothing answers there', async () => {
    const port = await deadPort();
    const run = await codeSystems([
      'lab',
      '--port',
      '0',
      '--database-url',
      `postgres://postgres:s3cret-pw@127.0.0.1:${port}/x`,
    ]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `code-systems: LAB_DATABASE_URL postgres://postgres@127.0.0.1:${port}/x: PostgreSQL unusable`,
    );
    expect(run.stderr).not.toContain('s3cret-pw');
  });
});
