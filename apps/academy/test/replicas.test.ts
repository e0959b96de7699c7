// Two HTTP replicas of academy-mcp (the built bin) on one PostgreSQL database, each with a data dir of its
// own (all they share is the database), driven by the official SDK client over Streamable HTTP as a team
// behind a load balancer would be: progress recorded on A is B's progress and B's analytics, and ten agents
// recording one lesson at once over both replicas record it once, every other told it was done, same date.
import { Replicas } from '@code-cluster/testkit/replicas';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AcademyDatabase, academyDatabase } from './helpers.js';

let db: AcademyDatabase | undefined;
let replicas: Replicas;
let a: Client;
let b: Client;

beforeAll(async () => {
  db = await academyDatabase('academy-mcp HTTP replicas (apps/academy/test/replicas.test.ts)');
  if (!db) return;
  replicas = await Replicas.start('academy', {
    ACADEMY_DATABASE_URL: db.url,
    ACADEMY_ANALYTICS_DATABASE_URL: db.analyticsUrl,
  });
  [a, b] = await Promise.all([replicas.connect(0), replicas.connect(1)]);
});
afterAll(async () => {
  await replicas?.close();
  await db?.dispose();
});

const call = (client: Client, name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

describe('academy-mcp: two HTTP replicas on one PostgreSQL', () => {
  it("shows progress recorded on replica A in B's progress and in B's analytics", async (ctx) => {
    if (!db) return ctx.skip();
    const recorded = await call(a, 'registrar_avance', { estudiante: 'ana-garcia', leccion: 'mcp-01-nxm' });
    expect(recorded.structuredContent).toMatchObject({ ya_estaba_completada: false });
    const progress = await call(b, 'progreso_estudiante', { estudiante: 'ana-garcia' });
    const cursos = (progress.structuredContent as { cursos: Array<{ curso: string; completadas: number }> })
      .cursos;
    expect(cursos.find((c) => c.curso === 'mcp')).toMatchObject({ completadas: 1 });
    const seen = await call(b, 'consulta_sql', {
      sql: 'SELECT leccion_id FROM avances WHERE estudiante_id = $1 ORDER BY 1',
      parametros: ['ana-garcia'],
    });
    expect((seen.structuredContent as { filas: unknown[][] }).filas).toContainEqual(['mcp-01-nxm']);
  });

  it('records one lesson raced by ten agents over both replicas once; the rest are told, same date', async (ctx) => {
    if (!db) return ctx.skip();
    const agents = await Promise.all(
      Array.from({ length: 10 }, (_, i) => replicas.connect(i % 2, `agente-${i}`)),
    );
    await Promise.all(agents.map((agent) => agent.listTools()));
    const results = await Promise.all(
      agents.map((agent) =>
        call(agent, 'registrar_avance', { estudiante: 'ana-garcia', leccion: 'mcp-02-ciclo-de-vida' }),
      ),
    );
    const outcomes = results.map(
      (r) => r.structuredContent as { ya_estaba_completada: boolean; completada_en: string },
    );
    expect(outcomes.filter((o) => !o.ya_estaba_completada)).toHaveLength(1);
    expect(new Set(outcomes.map((o) => o.completada_en)).size).toBe(1);
  });
});
