// The academy on a PostgreSQL of the test's own that goes away (kill -9) and comes back: every call,
// consulta_sql included, answers "no está disponible" (503) meanwhile, and the system recovers by itself.

import { connect, createServer, type Server, type Socket } from 'node:net';
import type { SystemError } from '@code-cluster/shared';
import { inProcessTransport } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import { rejectionOf } from '@code-cluster/testkit';
import { OwnPostgres, postgresBinDir } from '@code-cluster/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryForTests } from '../../../../scripts/engines/engines.mjs';
import { type AcademySystem, migrateAcademy, openAcademySystem } from './system.js';

const bin = postgresBinDir();
const present = binaryForTests(
  `${bin ?? '/usr/lib/postgresql/<version>/bin'}/postgres`,
  'the academy when PostgreSQL goes away (packages/systems/src/academy/pg-fault.test.ts)',
);
let own: OwnPostgres | undefined;
let system: AcademySystem;
let client: AcademyClient;
beforeAll(async () => {
  if (!present || !bin) return;
  own = await OwnPostgres.start(bin);
  const analyticsUrl = own.url.replace('postgres://postgres@', 'postgres://lector_academia@');
  await migrateAcademy({ databaseUrl: own.url, analyticsUrl });
  system = await openAcademySystem({ databaseUrl: own.url, analyticsUrl, sqlTimeoutMs: 2_000 });
  client = new AcademyClient(inProcessTransport(() => system.handler));
}, 60_000);
afterAll(async () => {
  await system?.close().catch(() => undefined);
  await own?.remove();
});

describe.skipIf(!present || !bin)('the academy when its PostgreSQL goes away', () => {
  it('answers 503 "no está disponible" while it is gone, and recovers when it is back', async () => {
    const count = { sql: 'SELECT count(*) AS n FROM estudiantes' };
    expect((await client.query(count)).rows).toEqual([[20]]);
    await own!.kill();
    for (const call of [
      () => client.query(count),
      () => client.searchCourses(),
      () => client.progress('ana-garcia'),
    ]) {
      const error = await rejectionOf<SystemError>(call());
      expect(error.kind, error.message).toBe('unavailable');
      // 503 from the system (the client words it for the model); a bug would be a 500.
      expect(error.message).toMatch(/no está disponible ahora \(HTTP 503\)/);
    }
    await own!.restart();
    expect((await client.query(count)).rows).toEqual([[20]]);
    expect((await client.searchCourses()).courses).toHaveLength(4);
  });

  it('a connection that goes silent mid-query is cut and answered 503, and the next query runs', async () => {
    // A TCP relay to the engine that can stop passing the engine's answers: silence, not a closed socket.
    let silent = false;
    const relays = new Set<Socket>();
    const relay: Server = createServer((downstream) => {
      const upstream = connect(own!.port, '127.0.0.1');
      relays.add(downstream).add(upstream);
      downstream.on('data', (chunk: Buffer) => {
        // Silent from the moment the query itself goes out: connected, in its transaction, then nothing.
        if (chunk.includes('SELECT 2 AS dos')) silent = true;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        if (!silent) downstream.write(chunk);
      });
      const end = () => {
        downstream.destroy();
        upstream.destroy();
      };
      downstream.on('close', end).on('error', end);
      upstream.on('close', end).on('error', end);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const port = (relay.address() as { port: number }).port;
    const quiet = await openAcademySystem({
      databaseUrl: own!.url,
      analyticsUrl: `postgres://lector_academia@127.0.0.1:${port}/postgres`,
      sqlTimeoutMs: 500,
    });
    try {
      const quietClient = new AcademyClient(inProcessTransport(() => quiet.handler));
      expect((await quietClient.query({ sql: 'SELECT 1 AS uno' })).rows).toEqual([[1]]);
      const error = await rejectionOf<SystemError>(quietClient.query({ sql: 'SELECT 2 AS dos' }));
      expect(error.message).toMatch(/no está disponible ahora \(HTTP 503\)/);
      silent = false;
      expect((await quietClient.query({ sql: 'SELECT 3 AS tres' })).rows).toEqual([[3]]);
    } finally {
      await quiet.close();
      for (const socket of relays) socket.destroy();
      relay.close();
    }
  });
});
