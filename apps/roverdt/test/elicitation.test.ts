// ejecutar_ruta asks the person first when the route would leave the battery under 30 % and the client
// declares elicitation: a real SDK client answers; nothing moves unless it accepts.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectEmbedded, FAR_EAST, INTO_SAND, NEAR_EAST, textOf } from './helpers.js';

const LOW = [{ id: 'rover-1', name: 'CO.DE Rover 1', near: { x: 40, y: 40 }, batteryPct: 35 }];

async function answering(answer: ElicitResult, batteryLow: boolean) {
  const session = await connectEmbedded({
    capabilities: { elicitation: {} },
    ...(batteryLow ? { rovers: LOW } : {}),
  });
  const asked: string[] = [];
  session.client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return answer;
  });
  return { ...session, asked };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

async function planned(client: Client, destino: { x: number; y: number }) {
  const plan = await call(client, 'planificar_ruta', { rover_id: 'rover-1', destino });
  expect(plan.isError).toBeFalsy();
  return (plan.structuredContent as { ruta_id: string }).ruta_id;
}

const battery = async (client: Client) =>
  ((await call(client, 'estado_rover', { rover_id: 'rover-1' })).structuredContent as { bateria_pct: number })
    .bateria_pct;

describe('ejecutar_ruta asks before draining the battery', () => {
  it('drives nothing when the person declines, and says what it would have cost', async () => {
    const s = await answering({ action: 'decline' }, true);
    const ruta = await planned(s.client, FAR_EAST);
    const before = await battery(s.client);
    expect(before).toBe(35);
    const result = await call(s.client, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta });
    expect(result.isError).toBeFalsy();
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatch(
      /^¿Ejecutar la ruta rt-[0-9a-f]{12} de rover-1\? dejaría la batería en [\d.]+ % \(menos del 30 %\)\.$/,
    );
    expect(textOf(result)).toContain('La persona rechazó la petición. El rover no se ha movido.');
    expect(result.structuredContent).toMatchObject({
      ruta_id: ruta,
      estado: 'planificada',
      tramos_hechos: 0,
      tramos_en_esta_llamada: 0,
      energia_gastada_wh: 0,
    });
    expect(await battery(s.client)).toBe(before);
    await s.close();
  });

  it('drives the route once the person confirms', async () => {
    const s = await answering({ action: 'accept', content: { confirmar: true } }, true);
    const ruta = await planned(s.client, FAR_EAST);
    const result = await call(s.client, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta });
    expect(s.asked).toHaveLength(1);
    expect(
      (result.structuredContent as { tramos_en_esta_llamada: number }).tramos_en_esta_llamada,
    ).toBeGreaterThan(0);
    await s.close();
  });

  it('asks before driving on into soft sand found after the plan, and drives nothing when declined', async () => {
    const s = await answering({ action: 'decline' }, false);
    const ruta = await planned(s.client, INTO_SAND);
    // The first drive finds the sand and stops before it; nothing was known to ask about.
    const first = await call(s.client, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta });
    expect(first.structuredContent).toMatchObject({ estado: 'detenida', parada: { motivo: 'peligro' } });
    expect(s.asked).toEqual([]);
    const before = await call(s.client, 'estado_rover', { rover_id: 'rover-1' });

    const again = await call(s.client, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta });
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatch(
      /^¿Ejecutar la ruta rt-[0-9a-f]{12} de rover-1\? cruza arena blanda conocida en \(\d+, \d+\)/,
    );
    expect(s.asked[0]).toContain('replanificar la evita');
    expect(again.isError).toBeFalsy();
    expect(textOf(again)).toContain('El rover no se ha movido.');
    expect(again.structuredContent).toMatchObject({ tramos_en_esta_llamada: 0, energia_gastada_wh: 0 });
    const after = await call(s.client, 'estado_rover', { rover_id: 'rover-1' });
    expect(after.structuredContent).toEqual(before.structuredContent);
    await s.close();
  });

  it('does not ask when the battery stays above 30 %', async () => {
    const s = await answering({ action: 'decline' }, false);
    const ruta = await planned(s.client, NEAR_EAST);
    const result = await call(s.client, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta });
    expect(s.asked).toEqual([]);
    expect(result.structuredContent).toMatchObject({ estado: 'completada' });
    await s.close();
  });

  it('without elicitation a draining route is driven as before', async () => {
    const s = await connectEmbedded({ rovers: LOW });
    const ruta = await planned(s.client, FAR_EAST);
    const result = await call(s.client, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta });
    expect(
      (result.structuredContent as { tramos_en_esta_llamada: number }).tramos_en_esta_llamada,
    ).toBeGreaterThan(0);
    await s.close();
  });
});
