import { inProcessTransport, SystemError } from '@code-cluster/shared';
import { LabClient } from '@code-cluster/shared/lab';
import { describe, expect, it } from 'vitest';
import { labEngines } from '../../test/lab-engines.js';
import type { LabSystem } from './system.js';

const engines = labEngines('student labs on PostgreSQL (packages/systems/src/lab/student-labs.test.ts)');

const HANDSHAKE = [
  '→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}',
  '← {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
  '→ {"jsonrpc":"2.0","method":"notifications/initialized"}',
].join('\n');

async function graded(system: LabSystem, lab: LabClient, student: string, content: string) {
  const session = await lab.startSession({ lab: 'mcp-handshake', student });
  await lab.submit(session.id, content);
  await system.idle();
}

describe.each(engines)('on $name', (engine) => {
  it('GET /v1/students/{student}/labs lists the labs a student passed, in any session, and nobody else', async (ctx) => {
    const place = engine.place() ?? ctx.skip('no PostgreSQL here');
    const system = await place.open();
    const lab = new LabClient(inProcessTransport(() => system.handler));

    expect(await lab.studentLabs('ana-garcia')).toEqual({ student: 'ana-garcia', passed: [] });
    // A failed attempt passes nothing; a later passing one, in another session, does.
    await graded(system, lab, 'ana-garcia', `${HANDSHAKE}\n← {"jsonrpc":"2.0","id":null,"result":{}}`);
    expect((await lab.studentLabs('ana-garcia')).passed).toEqual([]);
    await graded(system, lab, 'ana-garcia', HANDSHAKE);
    expect((await lab.studentLabs('ana-garcia')).passed).toEqual(['mcp-handshake']);
    expect((await lab.studentLabs('bruno-diaz')).passed).toEqual([]);

    // What is stored outlives the process.
    await system.close();
    const reopened = await place.open();
    const again = new LabClient(inProcessTransport(() => reopened.handler));
    expect((await again.studentLabs('ana-garcia')).passed).toEqual(['mcp-handshake']);

    const bad = await again.studentLabs('Ana García').catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(SystemError);
    expect((bad as SystemError).status).toBe(400);
    // The router's one bad-input policy (docs/architecture.md): 400 naming the parameter and the value.
    expect((bad as SystemError).message).toContain("Parámetro de ruta 'student' inválido");
    expect((bad as SystemError).message).toContain('"Ana García"');
  });
});
