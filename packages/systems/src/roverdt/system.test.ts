import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { type Route, RoverdtClient } from '@code-cluster/shared/roverdt';
import { rejectionOf } from '@code-cluster/testkit';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BATTERY_CAPACITY_WH, PANEL_PEAK_W, PARKED_LOAD_W, RESERVE_WH } from './model.js';
import { openRoverdtSystem, type RoverdtSystem, type RoverdtSystemOptions } from './system.js';
import { DEFAULT_SEED, type Terrain, terrainFromRows } from './terrain.js';

// The same behaviour on both engines: every test runs on a SQLite file and on PostgreSQL (a database of
// this file's own, a schema per test), the PostgreSQL leg skipped, saying why, when no PostgreSQL answers.

/**
 * A 20 × 9 test world (0.1 m per digit): open ground, a cell walled in by rocks at (2, 6), a pit walled by
 * 0.9 m steps (42°) at (12, 6), and, when asked, soft sand at (12, 2) on the straight way east.
 */
function world(sand = false): Terrain {
  return terrainFromRows(
    [
      '....................',
      '.###.......999......',
      '.#.#.......9.9......',
      '.###.......999......',
      '....................',
      '....................',
      sand ? '............~.......' : '....................',
      '....................',
      '....................',
    ],
    0.1,
  );
}
const ROVER = 'rover-t';

type Engine = 'sqlite' | 'postgres';
let pg: TestDatabase | undefined;
beforeAll(async () => {
  pg = await freshDatabase('the rover twin on PostgreSQL (packages/systems/src/roverdt/system.test.ts)');
});
afterAll(() => pg?.drop());

let dir: string;
let testNumber = 0;
const systems: RoverdtSystem[] = [];

/** Where a test's store named `name` lives on `engine`: a file in the test's dir, or a schema of its own. */
function storeOptions(engine: Engine, name: string): RoverdtSystemOptions {
  return engine === 'sqlite'
    ? { file: join(dir, name) }
    : { databaseUrl: pg!.url, databaseSchema: `rv_${testNumber}_${name.replace(/\W/g, '_')}` };
}

const refusal = (work: Promise<unknown>) => rejectionOf<SystemError>(work);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'code-roverdt-'));
  testNumber++;
});
afterEach(async () => {
  for (const system of systems.splice(0)) await system.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each<Engine>(['sqlite', 'postgres'])('on %s', (engine) => {
  beforeEach((ctx) => {
    if (engine === 'postgres' && !pg) ctx.skip();
  });

  async function open(options: { terrain?: Terrain; store?: string; batteryPct?: number } = {}) {
    const system = await openRoverdtSystem({
      ...storeOptions(engine, options.store ?? 'roverdt.db'),
      terrain: options.terrain ?? world(),
      rovers: [
        { id: ROVER, name: 'Rover de prueba', near: { x: 2, y: 2 }, batteryPct: options.batteryPct ?? 80 },
      ],
      now: () => Date.parse('2026-06-27T10:30:00Z'),
    });
    systems.push(system);
    return { system, client: new RoverdtClient(inProcessTransport(() => system.handler)) };
  }

  async function closeSystem(first: { system: RoverdtSystem }) {
    await first.system.close();
    systems.splice(systems.indexOf(first.system), 1);
  }

  describe('the reference rover', () => {
    it('starts rover-1 on the reference map at 80 % on a safe cell, idle, with four instruments', async () => {
      const system = await openRoverdtSystem(storeOptions(engine, 'ref.db'));
      systems.push(system);
      const client = new RoverdtClient(inProcessTransport(() => system.handler));
      const { rovers } = await client.listRovers();
      expect(rovers.map((r) => r.id)).toEqual(['rover-1']);
      expect(rovers[0]).toMatchObject({
        pose: { x: 40, y: 40, heading_deg: 0 },
        battery_pct: 80,
        battery_capacity_wh: 1000,
        reserve_pct: 15,
        mode: 'reposo',
        instruments: ['camara', 'espectrometro', 'termometro', 'sismometro'],
        clock: '2026-03-01T06:00:00.000Z',
        active_route_id: null,
        last_stop: null,
        known_hazards: 0,
      });
      const map = await client.map();
      expect(map).toMatchObject({ seed: DEFAULT_SEED, width: 256, max_slope_deg: 20 });
      expect(map.overview.legend).toHaveProperty('O');
    });

    it('answers an unknown rover with a 404 listing the rovers', async () => {
      const { client } = await open();
      const error = await refusal(client.getRover('rover-9'));
      expect(error.status).toBe(404);
      expect(error.message).toBe("No existe el rover 'rover-9'. Rovers disponibles: rover-t.");
    });
  });

  describe('planning', () => {
    it('plans the straight way east in legs of 8 moves, with distance, energy and battery after', async () => {
      const { client } = await open();
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      expect(route).toMatchObject({
        rover_id: ROVER,
        status: 'planificada',
        origin: { x: 2, y: 2 },
        destination: { x: 17, y: 2 },
        distance_m: 15,
        climb_m: 0,
        // 2.5 Wh per flat metre.
        energy_wh: 37.5,
        battery_after_pct: 76.3,
        legs_done: 0,
        stop: null,
      });
      expect(route.id).toMatch(/^rt-[0-9a-f]{12}$/);
      expect(route.legs.map((l) => [l.from.x, l.to.x, l.energy_wh])).toEqual([
        [2, 10, 20],
        [10, 17, 17.5],
      ]);
      expect(await client.getRoute(ROVER, route.id)).toEqual(route);
      expect((await client.listRoutes(ROVER)).routes.map((r) => r.id)).toEqual([route.id]);
    });

    it('refuses a destination walled in by rocks, saying so', async () => {
      const { client } = await open();
      const error = await refusal(client.planRoute(ROVER, { x: 2, y: 6 }));
      expect(error.status).toBe(422);
      expect(error.message).toBe(
        'No hay ruta de (2, 2) a (2, 6): las rocas la rodean por completo. Elige otro destino.',
      );
    });

    it('refuses a destination behind slopes over the limit, with the slope it would need', async () => {
      const { client } = await open();
      const error = await refusal(client.planRoute(ROVER, { x: 12, y: 6 }));
      expect(error.status).toBe(422);
      expect(error.message).toBe(
        'No hay ruta de (2, 2) a (12, 6) con pendientes de hasta 20°: el camino menos empinado exige 32.5° ' +
          '(paredes de cráter o laderas). Elige un destino fuera de esa zona.',
      );
    });

    it('refuses a rock as destination, suggesting a free neighbour, and a destination off the map', async () => {
      const { client } = await open();
      const rock = await refusal(client.planRoute(ROVER, { x: 1, y: 7 }));
      expect(rock.status).toBe(422);
      expect(rock.message).toBe(
        'El destino (1, 7) es una roca: el rover no puede ocupar esa celda. Elige una celda libre cercana, ' +
          'p. ej. (0, 6).',
      );
      const outside = await refusal(client.planRoute(ROVER, { x: 30, y: 2 }));
      expect(outside.status).toBe(422);
      expect(outside.message).toContain('fuera del mapa: x e y van de 0 a 19');
      const here = await refusal(client.planRoute(ROVER, { x: 2, y: 2 }));
      expect(here.message).toContain('ya está en (2, 2)');
    });

    it('refuses a route over the energy budget, with what it needs and what there is above the reserve', async () => {
      const { client } = await open({ batteryPct: 16 });
      const error = await refusal(client.planRoute(ROVER, { x: 17, y: 2 }));
      expect(error.status).toBe(409);
      const wait = (error.details as { wait_hours: number }).wait_hours;
      expect(error.message).toBe(
        'Energía insuficiente: la ruta a (17, 2) mide 15 m (subida 0 m) y necesita 37.5 Wh, pero solo hay ' +
          '10 Wh por encima de la reserva del 15 % (batería al 16 % de 1000 Wh). Los paneles solares la ' +
          `recargan: espera unas ${wait} h del reloj del rover con esperar {rover_id: 'rover-t', horas: ` +
          `${wait}} y vuelve a planificar. O elige un destino más cercano: en llano el rover alcanza ahora ` +
          'unos 4 m.',
      );
      expect(error.details).toMatchObject({ reason: 'energia', needed_wh: 37.5, available_wh: 10 });
      expect(wait).toBeGreaterThanOrEqual(1);
      // Nothing was stored.
      expect((await client.listRoutes(ROVER)).routes).toEqual([]);
      // A destination within the budget is fine.
      await expect(client.planRoute(ROVER, { x: 5, y: 2 })).resolves.toMatchObject({ energy_wh: 7.5 });
    });
  });

  describe('execution', () => {
    it('drives leg by leg, draining the battery by each leg’s energy and advancing the clock', async () => {
      const { client } = await open();
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      const first = await client.step(ROVER, route.id);
      expect(first.legs).toEqual([
        {
          index: 1,
          to: { x: 10, y: 2 },
          distance_m: 8,
          energy_wh: 20,
          battery_pct: 78,
          at: '2026-03-01T06:02:40.000Z',
          completed: true,
        },
      ]);
      expect(first.stop).toBeNull();
      expect(first.route).toMatchObject({ status: 'en_curso', legs_done: 1 });
      expect(first.rover).toMatchObject({
        pose: { x: 10, y: 2, heading_deg: 90 },
        battery_wh: 780,
        mode: 'en_ruta',
        active_route_id: route.id,
        odometer_m: 8,
      });
      const second = await client.step(ROVER, route.id);
      expect(second.route).toMatchObject({ status: 'completada', legs_done: 2 });
      expect(second.rover).toMatchObject({
        pose: { x: 17, y: 2 },
        battery_wh: 762.5,
        mode: 'reposo',
        active_route_id: null,
        odometer_m: 15,
        clock: '2026-03-01T06:05:00.000Z',
      });
      const again = await refusal(client.step(ROVER, route.id));
      expect(again.status).toBe(409);
      expect(again.message).toContain('ya se completó');
    });

    it('drives several legs in one request when asked, stopping at the end of the route', async () => {
      const { client } = await open();
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      const result = await client.step(ROVER, route.id, 10);
      expect(result.legs.map((l) => l.index)).toEqual([1, 2]);
      expect(result.route.status).toBe('completada');
    });

    it('stops before soft sand it finds on the way, remembers it, and plans around it afterwards', async () => {
      const { client } = await open({ terrain: world(true) });
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      // The planner did not know about the sand: the straight way crosses it.
      expect(route.distance_m).toBe(15);
      await client.step(ROVER, route.id);
      const stopped = await client.step(ROVER, route.id);
      expect(stopped.stop).toMatchObject({ reason: 'peligro', x: 11, y: 2 });
      expect(stopped.stop?.detail).toMatch(
        /^Arena blanda detectada en \(12, 2\), justo delante en el tramo 2: el rover se detuvo en \(11, 2\)/,
      );
      expect(stopped.legs).toEqual([
        expect.objectContaining({ index: 2, to: { x: 11, y: 2 }, completed: false }),
      ]);
      // One metre of the second leg was driven and paid for.
      expect(stopped.rover).toMatchObject({
        pose: { x: 11, y: 2 },
        battery_wh: 777.5,
        mode: 'detenido',
        active_route_id: null,
        known_hazards: 1,
      });
      expect(stopped.rover.last_stop?.reason).toBe('peligro');
      expect(stopped.route).toMatchObject({ status: 'detenida', legs_done: 1, stop: { reason: 'peligro' } });

      const resumed = await refusal(client.step(ROVER, route.id));
      expect(resumed.status).toBe(409);
      expect(resumed.message).toContain('se detuvo por seguridad');
      const detour = await client.planRoute(ROVER, { x: 17, y: 2 });
      expect(detour.distance_m).toBeGreaterThan(6);
      const done = await client.step(ROVER, detour.id, 10);
      expect(done.route.status).toBe('completada');
      expect(done.rover.pose).toMatchObject({ x: 17, y: 2 });
      const sandAhead = await refusal(client.planRoute(ROVER, { x: 12, y: 2 }));
      expect(sandAhead.message).toContain('es arena blanda que el rover ya encontró');
    });

    it('stops where it is when a leg would take the battery under the reserve', async () => {
      const { client, system } = await open();
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      // Something else drained the battery after planning: 25 Wh left above the reserve.
      await system.store.updateRover({
        ...(await system.store.getRover(ROVER))!,
        battery_wh: RESERVE_WH + 25,
      });
      const first = await client.step(ROVER, route.id);
      expect(first.stop).toBeNull();
      const second = await client.step(ROVER, route.id);
      expect(second.stop?.reason).toBe('reserva');
      expect(second.stop?.detail).toMatch(
        /^El tramo 2 necesita 17\.5 Wh y dejaría la batería en 13\.8 %, por debajo de la reserva del 15 %: el rover se detuvo en \(10, 2\) con 15\.5 %\. Los paneles solares la recargan: espera unas \d+ h del reloj del rover con esperar/,
      );
      expect(second.legs).toEqual([expect.objectContaining({ index: 2, distance_m: 0, completed: false })]);
      expect(second.rover).toMatchObject({ pose: { x: 10, y: 2 }, battery_wh: 155, mode: 'detenido' });
      expect(second.route).toMatchObject({ status: 'detenida', legs_done: 1 });
    });

    it('refuses a route planned from where the rover no longer is, and abandons a paused one it leaves', async () => {
      const { client } = await open();
      const east = await client.planRoute(ROVER, { x: 17, y: 2 });
      const south = await client.planRoute(ROVER, { x: 2, y: 0 });
      await client.step(ROVER, east.id);
      const stale = await refusal(client.step(ROVER, south.id));
      expect(stale.status).toBe(409);
      expect(stale.message).toBe(
        `La ruta ${south.id} está obsoleta: su tramo 1 empieza en (2, 2) y el rover está en (10, 2) (se movió ` +
          `después de planificarla: ahora lo lleva la ruta ${east.id}). Planifica una ruta nueva.`,
      );
      expect(stale.details).toMatchObject({ route_id: south.id, held_by: east.id });
      const back = await client.planRoute(ROVER, { x: 10, y: 0 });
      await client.step(ROVER, back.id);
      expect((await client.getRoute(ROVER, east.id)).status).toBe('abandonada');
      expect((await refusal(client.step(ROVER, east.id))).message).toContain('se abandonó');
    });

    it('answers an unknown route, or another rover’s, with 404', async () => {
      const { client } = await open();
      const error = await refusal(client.step(ROVER, 'rt-000000000000'));
      expect(error.status).toBe(404);
      expect(error.message).toContain("no tiene ninguna ruta 'rt-000000000000'");
    });
  });

  describe('instruments', () => {
    it('reads the same values for the same place and simulated time, and others after driving', async () => {
      const { client } = await open();
      for (const instrument of ['camara', 'espectrometro', 'termometro', 'sismometro'] as const) {
        const a = await client.measure(ROVER, instrument);
        const b = await client.measure(ROVER, instrument);
        expect(b).toEqual(a);
        expect(a).toMatchObject({ rover_id: ROVER, instrument, x: 2, y: 2, at: '2026-03-01T06:00:00.000Z' });
        expect(a.readings.length).toBeGreaterThanOrEqual(3);
        expect(a.summary.length).toBeGreaterThan(10);
      }
      const thermometer = await client.measure(ROVER, 'termometro');
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      await client.step(ROVER, route.id, 2);
      const later = await client.measure(ROVER, 'termometro');
      expect(later.at).toBe('2026-03-01T06:05:00.000Z');
      expect(later.readings).not.toEqual(thermometer.readings);
    });

    it('sees soft sand within 3 m with the camera', async () => {
      const { client } = await open({ terrain: world(true) });
      const far = await client.measure(ROVER, 'camara');
      expect(far.readings.find((r) => r.name === 'arena_blanda_cercana')?.value).toBe(0);
      const route = await client.planRoute(ROVER, { x: 10, y: 2 });
      await client.step(ROVER, route.id);
      const near = await client.measure(ROVER, 'camara');
      expect(near.readings.find((r) => r.name === 'arena_blanda_cercana')?.value).toBe(1);
      expect(near.summary).toContain('arena blanda a 2 m');
    });

    it('answers an instrument the rover does not carry with a 404 listing its instruments', async () => {
      const { system } = await open();
      const response = await system.handler({
        method: 'GET',
        path: `/v1/rovers/${ROVER}/measurements/radar`,
        query: new URLSearchParams(),
        headers: {},
        body: undefined,
      });
      expect(response.status).toBe(404);
      expect(JSON.parse(response.body).detail).toContain('camara, espectrometro, termometro, sismometro');
    });
  });

  describe('persistence', () => {
    it('keeps pose, battery, clock, routes and found sand across a reopen of the same store', async () => {
      const store = 'nested/roverdt.db';
      const first = await open({ store, terrain: world(true) });
      const stopped = await first.client.planRoute(ROVER, { x: 17, y: 2 });
      await first.client.step(ROVER, stopped.id, 2);
      const west = await first.client.planRoute(ROVER, { x: 0, y: 2 });
      await first.client.step(ROVER, west.id);
      const before = await first.client.getRover(ROVER);
      await closeSystem(first);

      const second = await open({ store, terrain: world(true) });
      const after = await second.client.getRover(ROVER);
      expect(after).toEqual(before);
      expect(after).toMatchObject({
        pose: { x: 3, y: 2, heading_deg: 270 },
        known_hazards: 1,
        mode: 'en_ruta',
        active_route_id: west.id,
        odometer_m: 17,
      });
      expect((await second.client.getRoute(ROVER, stopped.id)).status).toBe('detenida');
      expect(await second.client.getRoute(ROVER, west.id)).toMatchObject({
        status: 'en_curso',
        legs_done: 1,
      });
      // The half-driven route goes on after the reopen, and found sand is still avoided.
      const done = await second.client.step(ROVER, west.id, 10);
      expect(done.route.status).toBe('completada');
      expect(done.rover.pose).toMatchObject({ x: 0, y: 2 });
      expect((await refusal(second.client.planRoute(ROVER, { x: 12, y: 2 }))).message).toContain(
        'arena blanda',
      );
    });

    it('refuses to open a store written for another map seed', async () => {
      await open({ store: 'seeded.db' });
      await expect(
        openRoverdtSystem({
          ...storeOptions(engine, 'seeded.db'),
          terrain: { ...world(), seed: 1 },
          rovers: [],
        }),
      ).rejects.toThrow(/seed 0, not 1/);
    });
  });

  describe('REST surface', () => {
    it('answers problem+json for unknown routes, wrong methods and bad bodies', async () => {
      const { system } = await open();
      const call = (method: 'GET' | 'POST' | 'PUT', path: string, body?: string) =>
        system.handler({ method, path, query: new URLSearchParams(), headers: {}, body });
      const missing = await call('GET', '/v1/nothing');
      expect(missing.status).toBe(404);
      expect(missing.headers['content-type']).toBe('application/problem+json');
      expect((await call('PUT', `/v1/rovers/${ROVER}`)).status).toBe(405);
      expect((await call('POST', `/v1/rovers/${ROVER}/routes`, 'not json')).status).toBe(400);
      const extra = await call(
        'POST',
        `/v1/rovers/${ROVER}/routes`,
        JSON.stringify({ destination: { x: 3, y: 2 }, speed: 9 }),
      );
      expect(extra.status).toBe(400);
      const fractional = await call(
        'POST',
        `/v1/rovers/${ROVER}/routes`,
        JSON.stringify({ destination: { x: 3.5, y: 2 } }),
      );
      expect(JSON.parse(fractional.body).detail).toContain("Campo 'destination.x' inválido");
      const tooMany = await call('POST', `/v1/rovers/${ROVER}/routes/rt-000000000000/steps`, '{"legs":0}');
      expect(tooMany.status).toBe(400);
    });
  });

  describe('solar charging and waiting', () => {
    it('follows the day the instruments report: the panels give nothing at night, most at noon', async () => {
      const { client } = await open({ batteryPct: 50 });
      const readings = [];
      for (let hour = 0; hour < 25; hour++) {
        const camera = await client.measure(ROVER, 'camara');
        const light = camera.readings.find((r) => r.name === 'iluminacion')!.value;
        const rover = await client.getRover(ROVER);
        readings.push({ light, solar: rover.solar_w });
        await client.wait(ROVER, 1);
      }
      for (const { light, solar } of readings) {
        // The same curve: output is the panels' peak times the camera's illumination.
        expect(Math.abs(solar - (PANEL_PEAK_W * light) / 100)).toBeLessThanOrEqual(PANEL_PEAK_W * 0.006);
        if (light === 0) expect(solar).toBe(0);
      }
      expect(readings.some((r) => r.light === 0)).toBe(true);
      expect(Math.max(...readings.map((r) => r.solar))).toBeGreaterThan(PANEL_PEAK_W * 0.95);
    });

    it('charges by day and drains slowly at night; never over full or under empty', async () => {
      const { client } = await open({ batteryPct: 20 });
      // The rover starts at 06:00 local; a sol lasts 24 h 39 min, so 13 h of its clock take it past 18:00.
      const day = await client.wait(ROVER, 13);
      expect(day).toMatchObject({ hours: 13, battery_before_pct: 20 });
      expect(day.solar_wh).toBeGreaterThan(400);
      expect(day.gained_wh).toBeCloseTo(day.solar_wh - day.load_wh, 0);
      expect(day.rover.battery_wh).toBeCloseTo(200 + day.gained_wh, 0);
      expect(Date.parse(day.to) - Date.parse(day.from)).toBe(13 * 3_600_000);
      expect(day.rover.clock).toBe(day.to);
      const night = await client.wait(ROVER, 10);
      expect(night.solar_wh).toBe(0);
      expect(night.gained_wh).toBeCloseTo(-PARKED_LOAD_W * 10, 0);
      for (let k = 0; k < 6; k++) await client.wait(ROVER, 48);
      const full = await client.getRover(ROVER);
      expect(full.battery_wh).toBeLessThanOrEqual(BATTERY_CAPACITY_WH);
      expect(full.battery_pct).toBeGreaterThan(80);
    });

    it('gets a rover stuck at the reserve moving again after the wait the refusal names, and not before', async () => {
      const { client } = await open({ batteryPct: 16 });
      const error = await refusal(client.planRoute(ROVER, { x: 17, y: 2 }));
      const hours = (error.details as { wait_hours: number }).wait_hours;
      if (hours > 1) {
        await client.wait(ROVER, hours - 1);
        expect((await refusal(client.planRoute(ROVER, { x: 17, y: 2 }))).status).toBe(409);
        await client.wait(ROVER, 1);
      } else {
        await client.wait(ROVER, hours);
      }
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      expect((await client.step(ROVER, route.id, 10)).route.status).toBe('completada');
    });

    it('survives a restart: the charge and the clock are stored', async () => {
      const first = await open({ store: 'kept.db', batteryPct: 20 });
      const waited = await first.client.wait(ROVER, 6);
      await closeSystem(first);
      const again = await open({ store: 'kept.db' });
      expect(await again.client.getRover(ROVER)).toMatchObject({
        battery_wh: waited.rover.battery_wh,
        clock: waited.to,
      });
    });

    it('refuses hours outside 1–48, naming the field, and an unknown rover', async () => {
      const { client } = await open();
      for (const hours of [0, 49, 1.5]) {
        const error = await refusal(client.wait(ROVER, hours));
        expect(error.status).toBe(400);
        expect(error.message).toContain("Campo 'hours' inválido");
      }
      expect((await refusal(client.wait('nadie', 2))).status).toBe(404);
    });
  });

  describe('two drivers of one rover (two replicas on one database, or many requests on one)', () => {
    /** Two systems on one PostgreSQL database, as two replicas; one system on SQLite (one process). */
    async function replicas(options: { batteryPct?: number } = {}): Promise<[RoverdtClient, RoverdtClient]> {
      const a = await open(options);
      if (engine === 'sqlite') return [a.client, a.client];
      const b = await open(options);
      return [a.client, b.client];
    }

    /** Three legs and more from (2, 2), around the rocks. */
    const FAR = { x: 19, y: 8 };

    /** The rover after one undisturbed run to `destination`, on a store of its own. */
    async function singleRun(destination = { x: 17, y: 2 }) {
      const { client } = await open({ store: 'single.db' });
      const route = await client.planRoute(ROVER, destination);
      return (await client.step(ROVER, route.id, 10)).rover;
    }

    const state = (r: Awaited<ReturnType<RoverdtClient['getRover']>>) => ({
      pose: r.pose,
      battery_wh: r.battery_wh,
      odometer_m: r.odometer_m,
      clock: r.clock,
      mode: r.mode,
    });

    it('starts exactly one of many routes raced at once; the others are refused naming it', async () => {
      const [a, b] = await replicas();
      const planned: Route[] = [];
      for (let k = 0; k < 8; k++) planned.push(await (k % 2 ? b : a).planRoute(ROVER, { x: 17, y: 2 }));
      const results = await Promise.allSettled(
        planned.map((route, k) => (k % 2 ? a : b).step(ROVER, route.id, 1)),
      );
      const won = results.flatMap((r, k) => (r.status === 'fulfilled' ? [planned[k]!.id] : []));
      expect(won).toHaveLength(1);
      const winner = won[0]!;
      for (const [k, result] of results.entries()) {
        if (planned[k]!.id === winner) continue;
        expect(result.status).toBe('rejected');
        const error = (result as PromiseRejectedResult).reason as SystemError;
        expect(error.status).toBe(409);
        expect(error.message).toContain(`ahora lo lleva la ruta ${winner}`);
        expect(error.details).toMatchObject({ route_id: planned[k]!.id, held_by: winner });
      }
      const done = await b.step(ROVER, winner, 10);
      expect(done.route).toMatchObject({ status: 'completada', legs_done: 2 });
      for (const route of planned) {
        expect((await a.getRoute(ROVER, route.id)).status).toBe(
          route.id === winner ? 'completada' : 'planificada',
        );
      }
      expect(state(await a.getRover(ROVER))).toEqual(state(await singleRun()));
    });

    it('drives each leg of one route once when many requests step it at once', async () => {
      const [a, b] = await replicas();
      const route = await a.planRoute(ROVER, FAR);
      expect(route.legs.length).toBeGreaterThanOrEqual(3);
      // Under way: every request below reads the route at the same legs_done and only one may drive that leg.
      await a.step(ROVER, route.id, 1);
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, k) => (k % 2 ? a : b).step(ROVER, route.id, 1)),
      );
      const legs = results.flatMap((r) => (r.status === 'fulfilled' ? r.value.legs.map((l) => l.index) : []));
      expect(legs.sort()).toEqual(route.legs.slice(1).map((l) => l.index));
      for (const result of results) {
        if (result.status === 'fulfilled') continue;
        const error = result.reason as SystemError;
        expect(error.status).toBe(409);
        expect(error.message).toContain(`La ruta ${route.id} ya se completó`);
      }
      expect(await b.getRoute(ROVER, route.id)).toMatchObject({ status: 'completada' });
      expect(state(await b.getRover(ROVER))).toEqual(state(await singleRun(FAR)));
    });

    it('loses neither a leg nor a wait driven at the same moment from the two', async () => {
      const [a, b] = await replicas();
      const route = await a.planRoute(ROVER, { x: 17, y: 2 });
      await Promise.all([a.step(ROVER, route.id, 10), b.wait(ROVER, 2), b.wait(ROVER, 3)]);
      const after = await a.getRover(ROVER);
      // 15 m at 0.05 m/s is 300 s of driving, whatever the order; plus the five hours parked.
      expect(after.clock).toBe(
        new Date(Date.parse('2026-03-01T06:00:00Z') + 300_000 + 5 * 3_600_000).toISOString(),
      );
      expect(after).toMatchObject({ odometer_m: 15, pose: { x: 17, y: 2 }, mode: 'reposo' });
    });

    it('refuses a leg of a route that no longer holds the rover, naming the one that does', async () => {
      const { client, system } = await open();
      const route = await client.planRoute(ROVER, { x: 17, y: 2 });
      await client.step(ROVER, route.id);
      // Another driver's route took the rover (its claim committed) while this one was paused.
      await system.store.updateRover({
        ...(await system.store.getRover(ROVER))!,
        active_route: 'rt-0123456789ab',
      });
      const error = await refusal(client.step(ROVER, route.id));
      expect(error.status).toBe(409);
      expect(error.message).toBe(
        `La ruta ${route.id} ya no lleva el rover ${ROVER}: lo lleva la ruta rt-0123456789ab. Consulta ` +
          'estado_rover y planifica desde (10, 2) si hace falta.',
      );
      expect((await client.getRover(ROVER)).pose).toMatchObject({ x: 10, y: 2 });
    });
  });
});
