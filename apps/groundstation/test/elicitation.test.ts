// cancelar_contacto and programar_mantenimiento ask the person first when the client declares elicitation:
// a real SDK client answers accept, decline or cancel, or never; nothing changes unless it accepts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { after, connectEmbedded, type EmbeddedOptions, GEO, textOf } from './helpers.js';

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

/** A session whose client answers every elicitation with `answer` (or never), recording the questions. */
async function answering(
  answer: ElicitResult | 'never',
  options: EmbeddedOptions = {},
): Promise<Awaited<ReturnType<typeof connectEmbedded>> & { asked: string[] }> {
  const session = await connectEmbedded({ capabilities: { elicitation: {} }, ...options });
  const asked: string[] = [];
  session.client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return answer === 'never' ? new Promise<ElicitResult>(() => {}) : answer;
  });
  return { ...session, asked };
}

const book = async (client: Client) => {
  const booked = await call(client, 'agendar_contacto', {
    estacion: 'orbiteye-mx',
    norad_id: GEO.GOES_17,
    inicio: after(900),
    fin: after(910),
  });
  return (booked.structuredContent as { contacto_id: string }).contacto_id;
};

const stateOf = async (client: Client, id: string) => {
  const agenda = await call(client, 'agenda_estacion', { estacion: 'orbiteye-mx', horas: 24 });
  return (
    agenda.structuredContent as { contactos: Array<{ contacto_id: string; estado: string }> }
  ).contactos.find((c) => c.contacto_id === id)?.estado;
};

describe('cancelar_contacto asks before cancelling', () => {
  it('cancels once the person confirms, after showing what is cancelled', async () => {
    const s = await answering({ action: 'accept', content: { confirmar: true } });
    const id = await book(s.client);
    const result = await call(s.client, 'cancelar_contacto', { contacto_id: id });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ contacto_id: id, estado: 'cancelado' });
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toContain(`¿Cancelar el contacto ${id}`);
    expect(s.asked[0]).toContain('orbiteye-mx');
    await s.close();
  });

  it.each([
    ['declines', { action: 'decline' } as ElicitResult, 'La persona rechazó la petición.'],
    ['cancels', { action: 'cancel' } as ElicitResult, 'La persona cerró la petición sin responder.'],
    [
      'leaves the box unticked',
      { action: 'accept', content: { confirmar: false } } as ElicitResult,
      'no confirmó',
    ],
  ])('changes nothing when the person %s, and says so', async (_how, answer, why) => {
    const s = await answering(answer);
    const id = await book(s.client);
    const result = await call(s.client, 'cancelar_contacto', { contacto_id: id });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain(`No se canceló el contacto ${id}`);
    expect(textOf(result)).toContain(why);
    expect(result.structuredContent).toMatchObject({ contacto_id: id, estado: 'programado' });
    expect(await stateOf(s.client, id)).toBe('programado');
    await s.close();
  });

  it('ends within the tool timeout when nobody answers, and the contact stays booked', async () => {
    const s = await answering('never', { toolTimeoutMs: 1500 });
    const id = await book(s.client);
    const result = await call(s.client, 'cancelar_contacto', { contacto_id: id });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(
      /No se canceló el contacto .*No llegó respuesta a la pregunta en [\d.]+ s/,
    );
    expect(await stateOf(s.client, id)).toBe('programado');
    await s.close();
  });

  it('does not ask about a contact that can no longer be cancelled', async () => {
    const s = await answering({ action: 'accept', content: { confirmar: true } });
    const id = await book(s.client);
    await call(s.client, 'cancelar_contacto', { contacto_id: id });
    const again = await call(s.client, 'cancelar_contacto', { contacto_id: id });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toContain('ya estaba cancelado');
    expect(s.asked).toHaveLength(1);
    await s.close();
  });
});

describe('programar_mantenimiento asks before programming', () => {
  const window = {
    estacion: 'orbiteye-mx',
    inicio: after(24 * 60),
    fin: after(26 * 60),
    motivo: 'Rodamiento',
  };
  const windows = async (client: Client) => {
    const listed = await call(client, 'listar_mantenimientos', { estacion: 'orbiteye-mx' });
    return JSON.stringify(listed.structuredContent);
  };

  it('programs once the operator confirms', async () => {
    const s = await answering({ action: 'accept', content: { confirmar: true } }, { scope: 'operador' });
    const result = await call(s.client, 'programar_mantenimiento', window);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ estacion: 'orbiteye-mx', origen: 'operador' });
    expect((result.structuredContent as { mantenimiento_id?: string }).mantenimiento_id).toMatch(/./);
    expect(s.asked[0]).toContain('¿Programar mantenimiento en orbiteye-mx');
    await s.close();
  });

  it('programs nothing when the operator declines, and says why in text and data', async () => {
    const s = await answering({ action: 'decline' }, { scope: 'operador' });
    const before = await windows(s.client);
    const result = await call(s.client, 'programar_mantenimiento', window);
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe(
      'No se programó el mantenimiento en orbiteye-mx: La persona rechazó la petición.',
    );
    expect(result.structuredContent).toEqual({
      ...window,
      origen: 'operador',
      no_programado: 'La persona rechazó la petición.',
    });
    expect(await windows(s.client)).toBe(before);
    await s.close();
  });

  it('without elicitation it programs as before, without asking', async () => {
    const s = await connectEmbedded({ scope: 'operador' });
    const result = await call(s.client, 'programar_mantenimiento', window);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).not.toHaveProperty('no_programado');
    await s.close();
  });
});
