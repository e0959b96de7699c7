// `code-systems roverdt` and `code-systems migrate roverdt` (the built bin): the schema on PostgreSQL, or the
// SQLite file in the data dir, created once and left alone on a second run; the HTTP service on PostgreSQL,
// and one line, exit 2, on a URL nothing answers at.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@code-cluster/testkit';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'code-roverdt-bin-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

let db: TestDatabase | undefined;
beforeAll(async () => {
  db = await freshDatabase('code-systems roverdt on PostgreSQL (packages/systems/src/roverdt/bin.test.ts)');
});
afterAll(() => db?.drop());

function start(args: string[]): ChildProcess {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ROVERDT_')));
  return spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...env, CODE_CLUSTER_DATA_DIR: dataDir },
  });
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = start(args);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('code-systems migrate roverdt', () => {
  it('creates the schema on PostgreSQL once; a second run finds it done and says the same', async (ctx) => {
    if (!db) return ctx.skip();
    const first = await run(['migrate', 'roverdt', '--database-url', db.url]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toMatch(/^roverdt: schema roverdt on postgres:\/\/.* at version 1\n$/);
    const second = await run(['migrate', 'roverdt', '--database-url', db.url]);
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect(await db.query('SELECT version FROM roverdt.schema_version')).toEqual([{ version: 1 }]);
    const tables = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'roverdt' ORDER BY 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      'known_hazard',
      'meta',
      'route',
      'rover',
      'schema_version',
    ]);
  });

  it('creates the SQLite file in the data dir without a URL, idempotently', async () => {
    const first = await run(['migrate', 'roverdt']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(`roverdt: SQLite file ${join(dataDir, 'roverdt.db')} at version 1\n`);
    expect(existsSync(join(dataDir, 'roverdt.db'))).toBe(true);
    expect(await run(['migrate', 'roverdt'])).toMatchObject({ code: 0, stdout: first.stdout });
  });

  it('says why in one line, exit 2, when nothing answers at the URL', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/nada`;
    const { code, stderr } = await run(['migrate', 'roverdt', '--database-url', url]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^code-systems: migrate roverdt: .*ECONNREFUSED/),
    ]);
  });
});

describe('code-systems roverdt --database-url', () => {
  it('exits 2 with one line naming ROVERDT_DATABASE_URL, without the password, when nothing answers there', async () => {
    const url = `postgres://postgres:secreto@127.0.0.1:${await freePort()}/nada`;
    const { code, stderr } = await run(['roverdt', '--port', '0', '--database-url', url]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringContaining('ROVERDT_DATABASE_URL postgres://postgres@127.0.0.1:'),
    ]);
    expect(stderr).not.toContain('secreto');
  });

  it('serves the rover twin from PostgreSQL', async (ctx) => {
    if (!db) return ctx.skip();
    const child = start(['roverdt', '--port', '0', '--database-url', db.url]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        child.stderr!.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const listening = /listening on (\S+)/.exec(stderr);
          if (listening) resolve(listening[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      const response = await fetch(`${url}/v1/rovers/rover-1`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 'rover-1', pose: { x: 40, y: 40 } });
      expect(await db.query('SELECT id FROM roverdt.rover')).toEqual([{ id: 'rover-1' }]);
    } finally {
      child.kill();
    }
  });
});
