// lab-mcp with its store on PostgreSQL (LAB_DATABASE_URL), as its built server runs: a URL where nothing
// listens stops it at start (exit 2, one stderr line naming the variable, no password), and two servers on
// one database are replicas of one world (a session opened on one takes submissions sent through the other).
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type StdioPeer, spawnServerWithData } from '@code-cluster/testkit';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOD_TRANSCRIPT, tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
let db: TestDatabase | undefined;
beforeAll(async () => {
  db = await freshDatabase('lab-mcp on PostgreSQL (apps/lab/test/postgres.test.ts)');
});
afterAll(() => db?.drop());
const track = trackPeers();

const dirs: string[] = [];
function spawnLab(env: Record<string, string>): StdioPeer {
  const dir = join(data.dir, String(dirs.length));
  dirs.push(dir);
  return track(spawnServerWithData('lab', dir, [], env));
}

async function call(peer: StdioPeer, name: string, args: Record<string, unknown>) {
  const reply = await peer.request('tools/call', { name, arguments: args });
  return reply.result as { isError?: boolean; structuredContent?: Record<string, unknown> };
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

describe('lab-mcp on PostgreSQL', () => {
  it('refuses to start on a URL nothing answers: one stderr line naming LAB_DATABASE_URL, exit 2', async () => {
    const port = await deadPort();
    const peer = spawnLab({ LAB_DATABASE_URL: `postgres://postgres:s3cret-pw@127.0.0.1:${port}/lab` });
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stdoutLines).toEqual([]);
    const lines = peer.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `LAB_DATABASE_URL postgres://postgres@127.0.0.1:${port}/lab: PostgreSQL unusable`,
    );
    expect(lines[0]).toContain('ECONNREFUSED');
    expect(peer.stderr).not.toContain('s3cret-pw');
  });

  it('refuses a URL that is not a PostgreSQL one at start, naming the variable', async () => {
    const peer = spawnLab({ LAB_DATABASE_URL: 'http://127.0.0.1:5432/lab' });
    expect((await peer.exited).code).toBe(2);
    expect(peer.stderr).toContain('LAB_DATABASE_URL');
  });

  it('two servers on one database share sessions, submissions and gradings', async (ctx) => {
    if (!db) return ctx.skip('no PostgreSQL here');
    const a = spawnLab({ LAB_DATABASE_URL: db.url });
    const b = spawnLab({ LAB_DATABASE_URL: db.url });
    await Promise.all([a.initialize(), b.initialize()]);
    const started = await call(a, 'iniciar_laboratorio', {
      laboratorio: 'mcp-handshake',
      estudiante: 'ana-garcia',
    });
    expect(started.isError).toBeFalsy();
    const sesion_id = started.structuredContent!.sesion_id as string;
    const sent = await call(b, 'enviar_entrega', { sesion_id, contenido: GOOD_TRANSCRIPT });
    expect(sent.isError).toBeFalsy();
    const entrega_id = sent.structuredContent!.entrega_id as string;
    const result = await call(a, 'resultado_entrega', { entrega_id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ aprobada: true });
    expect((await a.close()).code).toBe(0);
    expect((await b.close()).code).toBe(0);
    // It is all in PostgreSQL: no SQLite file in either server's data dir.
    const stored = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM lab.submission');
    expect(stored).toEqual([{ n: 1 }]);
    for (const dir of dirs.slice(-2)) expect(existsSync(join(dir, 'lab.db'))).toBe(false);
  });
});
