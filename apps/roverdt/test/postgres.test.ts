// roverdt-mcp on PostgreSQL (ROVERDT_DATABASE_URL): a URL nothing answers at stops the server at start (one
// stderr line naming the variable, exit 2); on a real PostgreSQL two server processes, as two replicas,
// share one rover, and the data dir is not needed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StdioPeer } from '@code-cluster/testkit';
import { freePort } from '@code-cluster/testkit';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RutaData } from '../src/format.js';
import { NEAR_EAST, spawnRoverdt, tempDataDir, wireData, wireIsError, wireText } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();

let db: TestDatabase | undefined;
beforeAll(async () => {
  db = await freshDatabase('roverdt-mcp on PostgreSQL (apps/roverdt/test/postgres.test.ts)');
});
afterAll(() => db?.drop());

function spawnOn(url: string, dataDir = data.dir): StdioPeer {
  const peer = spawnRoverdt(dataDir, [], { ROVERDT_DATABASE_URL: url, ROVERDT_LEG_DELAY_MS: '0' });
  track(peer);
  return peer;
}

const call = (peer: StdioPeer, name: string, args: Record<string, unknown>) =>
  peer.request('tools/call', { name, arguments: args });

describe('roverdt-mcp with ROVERDT_DATABASE_URL', () => {
  it('refuses to start on a URL nothing answers at: one stderr line naming the variable, exit 2', async () => {
    const url = `postgres://postgres:secreto@127.0.0.1:${await freePort()}/nada`;
    const peer = spawnOn(url);
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    const lines = peer.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('ROVERDT_DATABASE_URL postgres://postgres@127.0.0.1:');
    expect(lines[0]).toContain('PostgreSQL unusable');
    expect(peer.stderr).not.toContain('secreto');
    expect(peer.stdoutLines).toEqual([]);
  });

  it('shares one rover between two server processes, without a usable data dir', async (ctx) => {
    if (!db) return ctx.skip();
    // A data dir that is a file: SQLite could not live there, and on PostgreSQL the server does not need it.
    const notADir = join(data.dir, 'not-a-dir');
    writeFileSync(notADir, '');
    const a = spawnOn(db.url, notADir);
    const b = spawnOn(db.url, notADir);
    await Promise.all([a.initialize(), b.initialize()]);
    const planned = wireData<RutaData>(
      await call(a, 'planificar_ruta', { rover_id: 'rover-1', destino: NEAR_EAST }),
    );
    const driven = await call(b, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: planned.ruta_id });
    expect(wireIsError(driven)).toBe(false);
    expect(wireText(driven)).toContain(`Ruta ${planned.ruta_id} completada`);
    expect(wireText(await call(a, 'estado_rover', { rover_id: 'rover-1' }))).toMatch(
      /^rover-1 .* en \(70, 40\)/,
    );
    // The route is done for both: driving it again from A is refused.
    const again = await call(a, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: planned.ruta_id });
    expect(wireIsError(again)).toBe(true);
    expect(wireText(again)).toContain('ya se completó');
  });
});
