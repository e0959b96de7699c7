// responder_quiz asks the person for the answers still missing when the client declares elicitation: a
// real SDK client answers; an attempt is stored only with the person's answers, or as before without the
// feature.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectEmbedded, textOf } from './helpers.js';

type Asked = ElicitRequest['params'];

async function answering(answer: ElicitResult | 'never', options: { toolTimeoutMs?: number } = {}) {
  const session = await connectEmbedded({ capabilities: { elicitation: {} }, ...options });
  const asked: Asked[] = [];
  session.client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params);
    return answer === 'never' ? new Promise<never>(() => {}) : answer;
  });
  return { ...session, asked };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

const attempts = async (client: Client, estudiante: string) =>
  (
    (await call(client, 'progreso_estudiante', { estudiante })).structuredContent as {
      cursos: Array<{ intentos: unknown[] }>;
    }
  ).cursos.flatMap((c) => c.intentos).length;

/** quiz-mcp-04 has two questions; the student answered only the first. */
const HALF = { estudiante: 'carla-mendez', quiz: 'quiz-mcp-04', respuestas: { p1: 'b' } };

describe('responder_quiz asks for the missing answers', () => {
  it('asks once, with one list of options per missing question, and grades the answers given', async () => {
    const s = await answering({ action: 'accept', content: { p2: 'a' } });
    const result = await call(s.client, 'responder_quiz', HALF);
    expect(result.isError).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    const form = s.asked[0] as Asked & { requestedSchema: { properties: Record<string, unknown> } };
    expect(form.message).toMatch(/^Faltan 1 de 2 respuestas de carla-mendez en ".+" \(quiz-mcp-04\)\./);
    // Only the question left unanswered, its options titled with their text, none required.
    expect(Object.keys(form.requestedSchema.properties)).toEqual(['p2']);
    const field = form.requestedSchema.properties.p2 as { type: string; oneOf: Array<{ const: string }> };
    expect(field.type).toBe('string');
    expect(field.oneOf.map((o) => o.const)).toEqual(['a', 'b', 'c']);
    expect((form.requestedSchema as { required?: string[] }).required).toBeUndefined();

    const data = result.structuredContent as {
      enviado: boolean;
      intento_id: number;
      resultados: Array<{ pregunta: string; respuesta?: string }>;
    };
    expect(data.enviado).toBe(true);
    expect(data.intento_id).toBeGreaterThan(0);
    expect(data.resultados.map((r) => [r.pregunta, r.respuesta])).toEqual([
      ['p1', 'b'],
      ['p2', 'a'],
    ]);
    await s.close();
  });

  for (const [action, said] of [
    ['decline', 'La persona rechazó la petición.'],
    ['cancel', 'La persona cerró la petición sin responder.'],
  ] as const) {
    it(`stores no attempt when the person answers ${action}, and says so without an error`, async () => {
      const s = await answering({ action });
      const before = await attempts(s.client, 'carla-mendez');
      const result = await call(s.client, 'responder_quiz', HALF);
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe(
        'No se envió el cuestionario quiz-mcp-04 de carla-mendez (faltaban 1 respuestas: p2): ' +
          `${said} No se guardó ningún intento.`,
      );
      expect(result.structuredContent).toMatchObject({ enviado: false, intento_id: null, total: 2 });
      expect(await attempts(s.client, 'carla-mendez')).toBe(before);
      await s.close();
    });
  }

  it('ends within the tool timeout when nobody answers, and stores nothing', async () => {
    const s = await answering('never', { toolTimeoutMs: 1500 });
    const before = await attempts(s.client, 'carla-mendez');
    const result = await call(s.client, 'responder_quiz', HALF);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ enviado: false });
    expect(textOf(result)).toContain('No se guardó ningún intento.');
    expect(await attempts(s.client, 'carla-mendez')).toBe(before);
    await s.close();
  });

  it('does not ask when every question is answered', async () => {
    const s = await answering({ action: 'decline' });
    const result = await call(s.client, 'responder_quiz', { ...HALF, respuestas: { p1: 'b', p2: 'b' } });
    expect(s.asked).toEqual([]);
    expect(result.structuredContent).toMatchObject({ enviado: true, aciertos: 2 });
    await s.close();
  });

  it('without elicitation submits as before: a missing answer counts as wrong', async () => {
    const s = await connectEmbedded();
    const result = await call(s.client, 'responder_quiz', HALF);
    expect(result.structuredContent).toMatchObject({ enviado: true, aciertos: 1, total: 2 });
    await s.close();
  });
});
