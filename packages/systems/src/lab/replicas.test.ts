// The lab suite on PostgreSQL as two replicas see it: two systems (two pools) on one database share
// sessions, submissions and gradings; a claim raced from both is won once; an engine that goes away is
// "no está disponible", and the system recovers by itself once it is back.

import { join } from 'node:path';
import { inProcessTransport, SystemError } from '@code-cluster/shared';
import { LabClient } from '@code-cluster/shared/lab';
import { OwnPostgres, postgresBinDir } from '@code-cluster/testkit/postgres';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { type LabPlace, labEngines } from '../../test/lab-engines.js';
import { knownLab } from './catalog.js';
import { type LabSystem, openLabSystem } from './system.js';

const [, postgres] = labEngines('lab replicas on PostgreSQL (packages/systems/src/lab/replicas.test.ts)');
const here = (ctx: TestContext): LabPlace => postgres!.place() ?? ctx.skip('no PostgreSQL here');
const client = (system: LabSystem) => new LabClient(inProcessTransport(() => system.handler));

const HANDSHAKE = [
  '→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}',
  '← {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
  '→ {"jsonrpc":"2.0","method":"notifications/initialized"}',
].join('\n');

describe('lab replicas on one PostgreSQL', () => {
  it("each replica sees the other's sessions, submissions, gradings and passed labs", async (ctx) => {
    const place = here(ctx);
    const [a, b] = await Promise.all([place.open(), place.open()]);
    const labA = client(a);
    const labB = client(b);
    const session = await labA.startSession({ lab: 'mcp-handshake', student: 'ana-garcia' });
    const { student_verified, student_note, ...stored } = session;
    expect(await labB.getSession(session.id)).toEqual(stored);
    // Submitted on B (B grades it), read on A.
    const submitted = await labB.submit(session.id, HANDSHAKE);
    expect((await labA.getSession(session.id)).submissions).toBe(1);
    await b.idle();
    const onA = await labA.result(submitted.id);
    expect(onA.submission).toMatchObject({
      status: 'evaluada',
      rules_done: knownLab('mcp-handshake').rules.length,
    });
    expect(onA.passed).toBe(true);
    expect(await labA.result(submitted.id)).toEqual(await labB.result(submitted.id));
    expect((await labA.studentLabs('ana-garcia')).passed).toEqual(['mcp-handshake']);
  });

  it('a claim raced from two replicas is won exactly once, and counts one attempt', async (ctx) => {
    const place = here(ctx);
    const [one, two] = await Promise.all([place.store(), place.store()]);
    await one.insertSession({
      id: 'ses-00000000000a',
      lab: 'mcp-handshake',
      student: 'ana-garcia',
      started_ms: 1,
    });
    await two.insertSubmission({
      id: 'ent-00000000000a',
      sessionId: 'ses-00000000000a',
      content: HANDSHAKE,
      sizeBytes: HANDSHAKE.length,
      rulesTotal: 3,
      nowMs: 2,
    });
    const race = (at: number) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).claim('ent-00000000000a', at, 60_000)),
      );
    expect((await race(1_000)).filter(Boolean)).toHaveLength(1);
    expect(await one.submission('ent-00000000000a')).toMatchObject({
      status: 'evaluando',
      attempts: 1,
      claimed_ms: 1_000,
    });
    // Not stale yet: nobody takes it over; long stale: exactly one replica does.
    expect((await race(30_000)).filter(Boolean)).toHaveLength(0);
    expect((await race(100_000)).filter(Boolean)).toHaveLength(1);
    expect(await two.submission('ent-00000000000a')).toMatchObject({ attempts: 2, claimed_ms: 100_000 });
  });

  it('two replicas starting together grade each pending submission once', async (ctx) => {
    const place = here(ctx);
    const store = await place.store();
    await store.insertSession({
      id: 'ses-00000000000b',
      lab: 'mcp-handshake',
      student: 'bruno-diaz',
      started_ms: 1,
    });
    const ids = Array.from({ length: 8 }, (_, i) => `ent-00000000000${i}`);
    for (const [i, id] of ids.entries()) {
      await store.insertSubmission({
        id,
        sessionId: 'ses-00000000000b',
        content: HANDSHAKE,
        sizeBytes: HANDSHAKE.length,
        rulesTotal: knownLab('mcp-handshake').rules.length,
        nowMs: 10 + i,
      });
    }
    // Both resume the same pending submissions at the same moment.
    const [a, b] = await Promise.all([place.open(), place.open()]);
    await Promise.all([a.idle(), b.idle()]);
    for (const id of ids) {
      expect(await store.submission(id)).toMatchObject({
        status: 'evaluada',
        attempts: 1,
        rules_done: knownLab('mcp-handshake').rules.length,
      });
      expect(await store.ruleResults(id)).toHaveLength(knownLab('mcp-handshake').rules.length);
    }
  });
});

const bin = postgresBinDir();
const owned: OwnPostgres[] = [];
afterAll(async () => {
  for (const server of owned) await server.remove();
});

describe.runIf(bin)('the lab on a PostgreSQL of its own that dies', () => {
  it('answers "no está disponible" while PostgreSQL is down, and works again once it is back', async (ctx) => {
    const place = here(ctx);
    const server = await OwnPostgres.start(bin!);
    owned.push(server);
    const system = await openLabSystem({
      databaseUrl: server.url,
      queryTimeoutMs: 2_000,
      academyFile: join(place.dir, 'academy.db'),
    });
    try {
      const lab = client(system);
      const { id } = await lab.startSession({ lab: 'mcp-handshake', student: 'ana-garcia' });
      const session = await lab.getSession(id);
      await server.kill();
      const down = await lab.getSession(session.id).catch((error: unknown) => error);
      expect(down).toBeInstanceOf(SystemError);
      expect((down as SystemError).kind).toBe('unavailable');
      expect((down as SystemError).message).toContain('no está disponible ahora (HTTP 503)');
      await server.restart();
      // The pool dropped its broken connections: the next calls reconnect by themselves.
      let back: unknown;
      for (let tries = 0; tries < 50; tries++) {
        back = await lab.getSession(session.id).catch((error: unknown) => error);
        if (!(back instanceof Error)) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(back).toEqual(session);
    } finally {
      await system.close();
    }
  });
  it('a grading the engine dies under is reported, and the next submission is graded once it is back', async (ctx) => {
    const place = here(ctx);
    const server = await OwnPostgres.start(bin!);
    owned.push(server);
    const errors: unknown[] = [];
    const system = await openLabSystem({
      databaseUrl: server.url,
      queryTimeoutMs: 2_000,
      stepDelayMs: 100,
      academyFile: join(place.dir, 'academy.db'),
      onError: (error) => errors.push(error),
    });
    try {
      const lab = client(system);
      const session = await lab.startSession({ lab: 'mcp-handshake', student: 'ana-garcia' });
      const first = await lab.submit(session.id, HANDSHAKE);
      while ((await lab.result(first.id)).rules.length === 0) await new Promise((r) => setTimeout(r, 20));
      await server.kill();
      await system.idle();
      expect(errors.map(String).join('\n')).toContain('El sistema lab no está disponible');
      await server.restart();
      let second: Awaited<ReturnType<LabClient['submit']>> | undefined;
      for (let tries = 0; !second && tries < 50; tries++) {
        second = await lab.submit(session.id, HANDSHAKE).catch(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return undefined;
        });
      }
      await system.idle();
      expect((await lab.result(second!.id)).submission.status).toBe('evaluada');
    } finally {
      await system.close();
    }
  });
});
