// groundstation-mcp (the built bin) on PostgreSQL (GROUNDSTATION_DATABASE_URL): a URL where nothing listens
// stops it at start (exit 2, one line naming the variable); a PostgreSQL of the test's own killed -9 between
// calls makes a tool answer "no está disponible" (a domain error, never a hang), and once that PostgreSQL is
// back the next call works by itself.
import { freePort, type StdioPeer, type WireMessage, wireIsError, wireText } from '@code-cluster/testkit';
import { OwnPostgres, postgresBinDir } from '@code-cluster/testkit/postgres';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { binaryForTests } from '../../../scripts/engines/engines.mjs';
import { GEO, spawnGroundstation, tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();
const servers: OwnPostgres[] = [];
afterAll(async () => {
  for (const server of servers) await server.remove();
});

const bin = postgresBinDir();
const postgres =
  bin &&
  binaryForTests(
    `${bin}/postgres`,
    'groundstation-mcp with its own PostgreSQL (apps/groundstation/test/postgres.test.ts)',
  );

let spawned = 0;
function spawnOn(url: string): StdioPeer {
  const peer = spawnGroundstation(`${data.dir}/${spawned++}`, [], { GROUNDSTATION_DATABASE_URL: url });
  track(peer);
  return peer;
}

describe('groundstation-mcp when its PostgreSQL is not there', () => {
  it('refuses to start on a URL nothing answers: one stderr line naming GROUNDSTATION_DATABASE_URL, exit 2', async () => {
    const url = `postgres://postgres@127.0.0.1:${await freePort()}/nada`;
    const server = spawnOn(url);
    const exit = await server.exited;
    expect(exit.code).toBe(2);
    const lines = server.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`GROUNDSTATION_DATABASE_URL ${url}`);
    expect(lines[0]).toContain('PostgreSQL unusable');
    expect(server.stdoutLines).toEqual([]);
  });

  it('refuses a URL that is not a PostgreSQL one at start, naming the variable', async () => {
    const server = spawnOn('http://127.0.0.1:5432/x');
    expect((await server.exited).code).toBe(2);
    expect(server.stderr).toContain('GROUNDSTATION_DATABASE_URL');
  });
});

describe.runIf(postgres)('groundstation-mcp on a PostgreSQL of its own that dies between calls', () => {
  it('answers "no está disponible" while it is down, and books again once it is back', async () => {
    const own = await OwnPostgres.start(bin!);
    servers.push(own);
    const server = spawnOn(own.url);
    await server.initialize();
    const start = Date.now() + 3 * 3_600_000;
    const book = (slot: number) =>
      server.request('tools/call', {
        name: 'agendar_contacto',
        arguments: {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MEXSAT_3,
          antena: 'mx-s1',
          inicio: new Date(start + slot * 20 * 60_000).toISOString(),
          fin: new Date(start + slot * 20 * 60_000 + 10 * 60_000).toISOString(),
        },
      });
    const first = await book(0);
    expect(wireIsError(first), wireText(first)).toBe(false);

    await own.kill();
    const down: WireMessage[] = [
      await book(1),
      await server.request('tools/call', { name: 'estado_estacion', arguments: { estacion: 'orbiteye-mx' } }),
    ];
    for (const answer of down) {
      expect(wireIsError(answer)).toBe(true);
      expect(wireText(answer)).toContain('no está disponible');
    }

    await own.restart();
    const again = await book(1);
    expect(wireIsError(again), wireText(again)).toBe(false);
    const agenda = await server.request('tools/call', {
      name: 'agenda_estacion',
      arguments: { estacion: 'orbiteye-mx', horas: 6 },
    });
    const text = wireText(agenda);
    for (const booked of [first, again]) {
      expect(text).toContain(
        (booked.result as { structuredContent: { contacto_id: string } }).structuredContent.contacto_id,
      );
    }
  }, 120_000);
});
