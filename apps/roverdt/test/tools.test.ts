import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RoverData, RutaData } from '../src/format.js';
import { connectEmbedded, FAR_EAST, INTO_SAND, NEAR_EAST, TOO_FAR, textOf } from './helpers.js';

// Every test drives its own fresh rover-1 on the reference map: in-memory SQLite, and again on PostgreSQL (a
// schema per test in a database of this file's own; skipped, saying why, when no PostgreSQL answers).
let pg: TestDatabase | undefined;
beforeAll(async () => {
  pg = await freshDatabase('the tools of roverdt-mcp on PostgreSQL (apps/roverdt/test/tools.test.ts)');
});
afterAll(() => pg?.drop());
let schemas = 0;

describe.each(['sqlite', 'postgres'])('on %s', (engine) => {
  let client: Client;
  let close: (() => Promise<void>) | undefined;
  beforeEach(async (ctx) => {
    if (engine === 'postgres' && !pg) return ctx.skip();
    ({ client, close } = await connectEmbedded(
      engine === 'postgres' ? { database: { url: pg!.url, schema: `tools_${++schemas}` } } : {},
    ));
  });
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const structured = <T>(result: CallToolResult) => result.structuredContent as unknown as T;

  interface Ejecucion {
    ruta_id: string;
    estado: string;
    tramos_totales: number;
    tramos_hechos: number;
    tramos_en_esta_llamada: number;
    distancia_recorrida_m: number;
    energia_gastada_wh: number;
    parada: { motivo: string; detalle: string; x: number; y: number } | null;
    rover: RoverData;
  }

  async function plan(destino: { x: number; y: number }): Promise<RutaData> {
    const result = await call('planificar_ruta', { rover_id: 'rover-1', destino });
    expect(result.isError).toBeFalsy();
    return structured<RutaData>(result);
  }

  describe('estado_rover', () => {
    it('reports rover-1 where it starts: (40, 40), 80 %, idle, four instruments', async () => {
      const result = await call('estado_rover', { rover_id: 'rover-1' });
      expect(result.isError).toBeFalsy();
      expect(structured<RoverData>(result)).toMatchObject({
        rover_id: 'rover-1',
        posicion: { x: 40, y: 40, rumbo_deg: 0 },
        bateria_pct: 80,
        reserva_pct: 15,
        modo: 'reposo',
        instrumentos: ['camara', 'espectrometro', 'termometro', 'sismometro'],
        reloj_simulado: '2026-03-01T06:00:00.000Z',
        ruta_activa: null,
        ultima_parada: null,
      });
      expect(textOf(result)).toMatch(/^rover-1 \(CO\.DE Rover 1\) en \(40, 40\), rumbo 0°.*batería 80 %/);
    });

    it('answers an unknown rover with a domain error listing the rovers', async () => {
      const result = await call('estado_rover', { rover_id: 'rover-9' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("No existe el rover 'rover-9'. Rovers disponibles: rover-1.");
    });

    it('refuses a malformed rover_id naming the argument and the value', async () => {
      const result = await call('estado_rover', { rover_id: 'Rover 1' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("'rover_id'");
      expect(textOf(result)).toContain('"Rover 1"');
    });
  });

  describe('planificar_ruta', () => {
    it('plans a route in legs with distance, energy and the battery left, without moving the rover', async () => {
      const result = await call('planificar_ruta', { rover_id: 'rover-1', destino: NEAR_EAST });
      expect(result.isError).toBeFalsy();
      const ruta = structured<RutaData>(result);
      expect(ruta).toMatchObject({
        rover_id: 'rover-1',
        estado: 'planificada',
        origen: { x: 40, y: 40 },
        destino: NEAR_EAST,
        tramos_hechos: 0,
      });
      expect(ruta.tramos).toHaveLength(4);
      expect(ruta.energia_wh).toBeCloseTo(
        ruta.tramos.reduce((a, t) => a + t.energia_wh, 0),
        0,
      );
      expect(ruta.bateria_final_pct).toBeCloseTo(80 - ruta.energia_wh / 10, 0);
      expect(textOf(result)).toContain(`Para conducirla: ejecutar_ruta con ruta_id ${ruta.ruta_id}.`);
      const state = structured<RoverData>(await call('estado_rover', { rover_id: 'rover-1' }));
      expect(state.posicion).toMatchObject({ x: 40, y: 40 });
      expect(state.bateria_pct).toBe(80);
    });

    it('refuses a destination beyond the battery, saying how much energy it needs and how much there is', async () => {
      const result = await call('planificar_ruta', { rover_id: 'rover-1', destino: TOO_FAR });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /^Energía insuficiente: la ruta a \(250, 250\) mide 303\.4 m .* necesita 856\.8 Wh, pero solo hay 650 Wh por encima de la reserva del 15 %/,
      );
      // 856.8 Wh above a 150 Wh reserve is more than the 1000 Wh battery holds: waiting cannot help.
      expect(textOf(result)).toContain('Ni con los paneles a pleno se llega a esa energía');
    });

    it('refuses a destination off the map, naming destino.x, the bound and the value', async () => {
      const result = await call('planificar_ruta', { rover_id: 'rover-1', destino: { x: 300, y: 10 } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "Argumentos inválidos para 'planificar_ruta': 'destino.x' debe ser ≤ 255; recibido: 300.",
      );
    });
  });

  describe('ejecutar_ruta', () => {
    it('drives every leg, reports progress once per leg, drains the battery by the plan', async () => {
      const ruta = await plan(FAR_EAST);
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      const result = (await client.callTool(
        { name: 'ejecutar_ruta', arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id } },
        CallToolResultSchema,
        { onprogress: (p) => progress.push(p) },
      )) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const done = structured<Ejecucion>(result);
      expect(done).toMatchObject({
        estado: 'completada',
        tramos_totales: 8,
        tramos_hechos: 8,
        tramos_en_esta_llamada: 8,
        parada: null,
        rover: { posicion: { x: 100, y: 40 }, modo: 'reposo', ruta_activa: null },
      });
      expect(done.energia_gastada_wh).toBeCloseTo(ruta.energia_wh, 0);
      expect(done.rover.bateria_pct).toBeCloseTo(ruta.bateria_final_pct, 1);
      expect(progress.map((p) => [p.progress, p.total])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((i) => [i, 8]));
      expect(progress[7]?.message).toMatch(/^Tramo 8\/8: rover en \(100, 40\), batería/);
      expect(textOf(result)).toMatch(
        /^Ruta rt-[0-9a-f]{12} completada: el rover llegó a \(100, 40\) tras 8 tramos/,
      );
      const state = structured<RoverData>(await call('estado_rover', { rover_id: 'rover-1' }));
      expect(state).toMatchObject({ posicion: { x: 100, y: 40 }, bateria_pct: done.rover.bateria_pct });
    });

    it('refuses to drive a route that is already complete, saying so', async () => {
      const ruta = await plan(NEAR_EAST);
      await call('ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta.ruta_id });
      const again = await call('ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta.ruta_id });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toBe(
        `La ruta ${ruta.ruta_id} ya se completó: el rover rover-1 está en su destino (70, 40).`,
      );
    });

    it('answers an unknown route with a domain error pointing at planificar_ruta', async () => {
      const result = await call('ejecutar_ruta', { rover_id: 'rover-1', ruta_id: 'rt-000000000000' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('planificar_ruta crea una');
    });

    it('stops before soft sand with the reason, and the model can plan around it', async () => {
      const ruta = await plan(INTO_SAND);
      const result = await call('ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta.ruta_id });
      // A safety stop is the tool doing its job: a result that says why, not a failed call.
      expect(result.isError).toBeFalsy();
      const stopped = structured<Ejecucion>(result);
      expect(stopped).toMatchObject({
        estado: 'detenida',
        tramos_hechos: 2,
        parada: { motivo: 'peligro', x: 38, y: 56 },
        rover: { posicion: { x: 38, y: 56 }, modo: 'detenido' },
      });
      expect(textOf(result)).toMatch(
        /^Ruta rt-[0-9a-f]{12} DETENIDA en el tramo 3 de 4: Arena blanda detectada en \(37, 57\)/,
      );
      const replanned = await plan(INTO_SAND);
      expect(replanned.distancia_m).toBeGreaterThan(0);
      const state = structured<RoverData>(await call('estado_rover', { rover_id: 'rover-1' }));
      expect(state.peligros_conocidos).toBeGreaterThan(0);
      expect(state.ultima_parada?.motivo).toBe('peligro');
    });
  });

  describe('medir', () => {
    it('reads the camera where the rover stands, the same twice', async () => {
      const first = await call('medir', { rover_id: 'rover-1', instrumento: 'camara' });
      expect(first.isError).toBeFalsy();
      const data = structured<{
        x: number;
        y: number;
        instante: string;
        lecturas: Array<{ nombre: string }>;
      }>(first);
      expect(data).toMatchObject({ x: 40, y: 40, instante: '2026-03-01T06:00:00.000Z' });
      expect(data.lecturas.map((l) => l.nombre)).toEqual([
        'rocas_visibles',
        'desnivel_visible',
        'pendiente_local',
        'arena_blanda_cercana',
        'iluminacion',
      ]);
      expect(textOf(first)).toMatch(/^Panorámica en \(40, 40\)/);
      const second = await call('medir', { rover_id: 'rover-1', instrumento: 'camara' });
      expect(second.structuredContent).toEqual(first.structuredContent);
    });

    it('answers an unknown rover with a domain error', async () => {
      const result = await call('medir', { rover_id: 'rover-2', instrumento: 'termometro' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("No existe el rover 'rover-2'");
    });

    it('refuses an instrument the rover does not carry, listing the ones it does', async () => {
      const result = await call('medir', { rover_id: 'rover-1', instrumento: 'radar' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        'Argumentos inválidos para \'medir\': \'instrumento\' debe ser uno de: "camara", "espectrometro", ' +
          '"termometro", "sismometro"; recibido: "radar".',
      );
    });
  });

  describe('esperar', () => {
    const BEYOND_THE_BUDGET = { x: 220, y: 220 };

    it('recharges the rover: a route refused for energy is planned after the wait the refusal names', async () => {
      const refused = await call('planificar_ruta', { rover_id: 'rover-1', destino: BEYOND_THE_BUDGET });
      expect(refused.isError).toBe(true);
      const hours = Number(/espera unas (\d+) h del reloj del rover con esperar/.exec(textOf(refused))?.[1]);
      expect(hours).toBeGreaterThanOrEqual(1);
      expect(textOf(refused)).toContain(`esperar {rover_id: 'rover-1', horas: ${hours}}`);
      const waited = await call('esperar', { rover_id: 'rover-1', horas: hours });
      expect(waited.isError).toBeFalsy();
      const data = structured<{ horas: number; ganancia_wh: number; solar_wh: number; rover: RoverData }>(
        waited,
      );
      expect(data.horas).toBe(hours);
      expect(data.ganancia_wh).toBeGreaterThan(0);
      expect(data.rover.reloj_simulado).toBe(
        new Date(Date.parse('2026-03-01T06:00:00Z') + hours * 3_600_000).toISOString(),
      );
      expect(textOf(waited)).toMatch(
        new RegExp(`^rover-1 esperó ${hours} h .*los paneles dieron [\\d.]+ Wh`),
      );
      expect(
        (await call('planificar_ruta', { rover_id: 'rover-1', destino: BEYOND_THE_BUDGET })).isError,
      ).toBeFalsy();
    });

    it('reports the panels in estado_rover, and nothing from them at night', async () => {
      const dawn = structured<RoverData & { paneles_w: number }>(
        await call('estado_rover', { rover_id: 'rover-1' }),
      );
      expect(dawn.paneles_w).toBe(0);
      await call('esperar', { rover_id: 'rover-1', horas: 6 });
      const morning = await call('estado_rover', { rover_id: 'rover-1' });
      expect(structured<{ paneles_w: number }>(morning).paneles_w).toBeGreaterThan(90);
      expect(textOf(morning)).toMatch(/paneles [\d.]+ W;/);
      const night = await call('esperar', { rover_id: 'rover-1', horas: 10 });
      expect(structured<{ solar_wh: number; ganancia_wh: number }>(night).solar_wh).toBeGreaterThan(0);
      const dark = await call('esperar', { rover_id: 'rover-1', horas: 8 });
      expect(structured<{ solar_wh: number; ganancia_wh: number }>(dark)).toMatchObject({ solar_wh: 0 });
      expect(structured<{ ganancia_wh: number }>(dark).ganancia_wh).toBeLessThan(0);
    });

    it('refuses horas outside 1–48 naming the argument, and an unknown rover with a domain error', async () => {
      const tooLong = await call('esperar', { rover_id: 'rover-1', horas: 49 });
      expect(tooLong.isError).toBe(true);
      expect(textOf(tooLong)).toBe(
        "Argumentos inválidos para 'esperar': 'horas' debe ser ≤ 48; recibido: 49.",
      );
      const unknown = await call('esperar', { rover_id: 'rover-9', horas: 2 });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain("No existe el rover 'rover-9'");
    });
  });
});
