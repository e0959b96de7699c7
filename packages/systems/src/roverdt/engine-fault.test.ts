// The rover twin on a PostgreSQL of the test's own that dies (kill -9) and comes back: while it is gone
// every call is the domain's "no está disponible" (503), never a hang, and nothing is half-driven; once it
// is back the same system answers again by itself and the route goes on from where it was.
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { RoverdtClient } from '@code-cluster/shared/roverdt';
import { rejectionOf } from '@code-cluster/testkit';
import { OwnPostgres, postgresBinDir } from '@code-cluster/testkit/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { openRoverdtSystem, type RoverdtSystem } from './system.js';

const bin = postgresBinDir();
if (!bin) process.stderr.write('skipped the rover twin on a PostgreSQL that dies: no PostgreSQL binaries\n');
let own: OwnPostgres | undefined;
let system: RoverdtSystem | undefined;
afterAll(async () => {
  await system?.close().catch(() => undefined);
  await own?.remove();
});

describe.runIf(bin)('the rover twin when its PostgreSQL goes away', () => {
  it('answers 503 while it is down and drives on, from the same leg, once it is back', async () => {
    own = await OwnPostgres.start(bin!);
    system = await openRoverdtSystem({ databaseUrl: own.url });
    const client = new RoverdtClient(inProcessTransport(() => system!.handler));
    const route = await client.planRoute('rover-1', { x: 70, y: 40 });

    await own.kill();
    // The client says the twin is not available; the system's own answer says why.
    for (const work of [client.step('rover-1', route.id), client.getRover('rover-1')]) {
      expect((await rejectionOf<SystemError>(work)).kind).toBe('unavailable');
    }
    const response = await system.handler({
      method: 'GET',
      path: '/v1/rovers/rover-1',
      query: new URLSearchParams(),
      headers: {},
      body: undefined,
    });
    expect(response.status).toBe(503);
    expect(JSON.parse(response.body).detail).toMatch(
      /^El sistema roverdt no está disponible: su base de datos PostgreSQL no responde/,
    );

    await own.restart();
    expect(await client.getRover('rover-1')).toMatchObject({ pose: { x: 40, y: 40 }, odometer_m: 0 });
    const first = await client.step('rover-1', route.id);
    expect(first.legs.map((l) => l.index)).toEqual([1]);
    expect(first.route.legs_done).toBe(1);
  });
});
