import { type StdioPeer, spawnServerWithData } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());

/**
 * The ~750-byte submission of issue 9: the server it captured lists a tool whose pattern `^(a+)+$`
 * backtracks for minutes on 40 × `a` then `!`, and the transcript goes on to call it with exactly that.
 */
const REDOS = [
  '→ {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}',
  '← {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}',
  '→ {"jsonrpc":"2.0","method":"notifications/initialized"}',
  '→ {"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '← {"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"eco","inputSchema":{"type":"object","properties":{"texto":{"type":"string","pattern":"^(a+)+$"}},"required":["texto"]}}]}}',
  `→ {"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"eco","arguments":{"texto":"${'a'.repeat(40)}!"}}}`,
  '← {"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params"}}',
].join('\n');

type Graded = { estado: string; aprobada: boolean | null; motivo?: string };

async function call(peer: StdioPeer, name: string, args: Record<string, unknown>) {
  const reply = await peer.request('tools/call', { name, arguments: args }, 30_000);
  return (reply.result as { structuredContent: Record<string, unknown> }).structuredContent;
}

async function submitRedos(peer: StdioPeer): Promise<string> {
  const { sesion_id } = await call(peer, 'iniciar_laboratorio', {
    laboratorio: 'mcp-handshake',
    estudiante: 'ana-garcia',
  });
  const { entrega_id } = await call(peer, 'enviar_entrega', { sesion_id, contenido: REDOS });
  return entrega_id as string;
}

describe('lab-mcp over real stdio: a submission that would freeze its grader', () => {
  const track = trackPeers();
  const spawn = (budgetMs: number) =>
    track(spawnServerWithData('lab', data.dir, [], { LAB_GRADING_BUDGET_MS: String(budgetMs) }));

  it('is graded as not finished with the pattern named, while ping is answered meanwhile', async () => {
    const peer = spawn(3_000);
    await peer.initialize();
    const entrega_id = await submitRedos(peer);
    expect((await peer.request('ping')).result).toEqual({});
    // The ping was answered while the grading was still running (it runs for the whole budget).
    const during = (await call(peer, 'resultado_entrega', { entrega_id, espera_max_s: 0 })) as Graded;
    expect(['pendiente', 'evaluando']).toContain(during.estado);
    const graded = (await call(peer, 'resultado_entrega', { entrega_id, espera_max_s: 20 })) as Graded;
    expect(graded).toMatchObject({ estado: 'no_terminada', aprobada: false });
    expect(graded.motivo).toMatch(/"eco" \(línea 6\).*no terminó dentro de los 3 s.*"\^\(a\+\)\+\$"/);
    expect((await peer.close()).code).toBe(0);
  });

  it('exits within 2 s on SIGTERM or stdin close mid-grading, and a restart on the same data dir does not hang', async () => {
    const first = spawn(120_000);
    await first.initialize();
    const entrega_id = await submitRedos(first);
    const during = (await call(first, 'resultado_entrega', { entrega_id, espera_max_s: 0 })) as Graded;
    expect(['pendiente', 'evaluando']).toContain(during.estado);
    const exit = await first.kill('SIGTERM');
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(2_000);

    // Likewise when the client closes stdin mid-grading.
    const closing = spawn(120_000);
    await closing.initialize();
    await submitRedos(closing);
    const closed = await closing.close();
    expect(closed.code).toBe(0);
    expect(closed.ms).toBeLessThan(2_000);

    // The grading handed back at SIGTERM resumes in the next process, in its sandbox, and ends.
    const second = spawn(1_000);
    await second.initialize();
    const graded = (await call(second, 'resultado_entrega', { entrega_id, espera_max_s: 20 })) as Graded;
    expect((await second.request('ping')).result).toEqual({});
    expect(graded).toMatchObject({ estado: 'no_terminada', aprobada: false });
    expect((await second.close()).code).toBe(0);
  });
});
