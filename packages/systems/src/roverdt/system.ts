import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { IncomingRestRequest, RestHandler } from '@code-cluster/shared';
import {
  BATTERY_RESERVE_PCT,
  type Cell,
  INSTRUMENTS,
  InstrumentSchema,
  type LegResult,
  MAX_SLOPE_DEG,
  MAX_WAIT_HOURS,
  type MapSummary,
  type Measurement,
  PlanRouteRequestSchema,
  type Route,
  type Rover,
  StepRequestSchema,
  type StepResult,
  type Stop,
  type TerrainGrid,
  WaitRequestSchema,
  type WaitResult,
} from '@code-cluster/shared/roverdt';
import { z } from 'zod';
import { badRequest, HttpProblem, jsonResponse, notFound, unprocessable } from '../http/problem.js';
import { createRouter, parseQuery } from '../http/router.js';
import { dataDir } from '../storage/index.js';
import { measure } from './instruments.js';
import {
  BATTERY_CAPACITY_WH,
  CLOCK_EPOCH_MS,
  driveMs,
  hoursToReach,
  legEnergyWh,
  parked,
  pct,
  RESERVE_WH,
  round,
  solarW,
  WH_PER_M,
} from './model.js';
import { gridOf, summarizeMap } from './overview.js';
import { cutIntoLegs, explainUnreachable, findPath, moveLength, type PlanLimits } from './planner.js';
import {
  openRoverdtStore,
  type RouteRow,
  type RoverdtStore,
  type RoverRow,
  type StoredLeg,
} from './store.js';
import { DEFAULT_SEED, indexOf, inMap, type Terrain, terrainFor } from './terrain.js';

export interface RoverSeed {
  id: string;
  name: string;
  /** Where it starts: the nearest safe cell to this one. */
  near: Cell;
  batteryPct: number;
}

/** The reference rover every fresh install has (CONTRACT.md). */
export const REFERENCE_ROVERS: readonly RoverSeed[] = [
  { id: 'rover-1', name: 'CO.DE Rover 1', near: { x: 40, y: 40 }, batteryPct: 80 },
];

export interface RoverdtSystemOptions {
  /** SQLite file of the rovers' state; `roverdt.db` under the cluster's data dir by default. */
  file?: string;
  /** The terrain's seed (ignored when `terrain` is given). */
  seed?: number;
  /** A terrain drawn by hand (tests). */
  terrain?: Terrain;
  rovers?: readonly RoverSeed[];
  /** The wall clock, Unix ms, for when routes were planned (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface RoverdtSystem {
  handler: RestHandler;
  terrain: Terrain;
  store: RoverdtStore;
  close(): void;
}

const VERSION = '0.1.0';
/** Soft sand the hazard camera makes out around the cell that stopped the rover, cells. */
const SAND_SIGHT = 2;

export function defaultDatabaseFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'roverdt.db');
}

/** The rover twin's REST API (see packages/shared/src/roverdt/schemas.ts for the resources). */
export function createRoverdtSystem(options: RoverdtSystemOptions = {}): RoverdtSystem {
  const terrain = options.terrain ?? terrainFor(options.seed ?? DEFAULT_SEED);
  const store = openRoverdtStore(options.file ?? defaultDatabaseFile());
  const now = options.now ?? Date.now;
  try {
    store.transaction(() => {
      const stored = store.seed();
      if (stored !== undefined && stored !== terrain.seed) {
        throw new Error(
          `${store.file} holds rovers of the map with seed ${stored}, not ${terrain.seed}: use another data dir`,
        );
      }
      store.setSeed(terrain.seed);
      for (const seed of options.rovers ?? REFERENCE_ROVERS) store.insertRover(initialRover(terrain, seed));
    });
  } catch (error) {
    store.close();
    throw error;
  }
  let mapSummary: MapSummary | undefined;
  let terrainGrid: TerrainGrid | undefined;

  const cell = (i: number): Cell => ({ x: i % terrain.width, y: Math.floor(i / terrain.width) });
  const describe = (c: Cell) => `(${c.x}, ${c.y})`;

  const rover = (id: string): RoverRow => {
    const found = store.getRover(id);
    if (!found) {
      const known = store.listRovers().map((r) => r.id);
      throw notFound(`No existe el rover '${id}'. Rovers disponibles: ${known.join(', ')}.`, {
        rover_id: id,
      });
    }
    return found;
  };
  const routeOf = (roverId: string, routeId: string): RouteRow => {
    const found = store.getRoute(routeId);
    if (!found || found.rover_id !== roverId) {
      throw notFound(
        `El rover ${roverId} no tiene ninguna ruta '${routeId}'. planificar_ruta crea una y da su ruta_id.`,
        { route_id: routeId },
      );
    }
    return found;
  };

  const roverDto = (r: RoverRow): Rover => ({
    id: r.id,
    name: r.name,
    pose: {
      x: r.x,
      y: r.y,
      heading_deg: round(r.heading_deg, 1) % 360,
      elevation_m: round(terrain.elevation[indexOf(terrain, r.x, r.y)]!, 2),
    },
    battery_pct: round(pct(r.battery_wh)),
    battery_wh: round(r.battery_wh),
    battery_capacity_wh: BATTERY_CAPACITY_WH,
    reserve_pct: BATTERY_RESERVE_PCT,
    mode: r.mode,
    instruments: [...INSTRUMENTS],
    clock: iso(r.clock_ms),
    solar_w: round(solarW(r.clock_ms)),
    odometer_m: round(r.odometer_m, 2),
    active_route_id: r.active_route,
    last_stop: r.last_stop,
    known_hazards: store.knownHazards(r.id).size,
  });
  const routeDto = (r: RouteRow): Route => ({
    id: r.id,
    rover_id: r.rover_id,
    status: r.status,
    origin: cell(r.plan.origin),
    destination: cell(r.plan.destination),
    legs: r.plan.legs.map((leg, k) => ({
      index: k + 1,
      from: cell(leg.from),
      to: cell(leg.to),
      distance_m: round(leg.distance_m, 2),
      climb_m: round(leg.climb_m, 2),
      max_slope_deg: round(leg.max_slope_deg, 1),
      energy_wh: round(leg.energy_wh),
    })),
    distance_m: round(r.plan.distance_m, 2),
    climb_m: round(r.plan.climb_m, 2),
    max_slope_deg: round(r.plan.max_slope_deg, 1),
    energy_wh: round(r.plan.energy_wh),
    battery_after_pct: round(r.plan.battery_after_pct),
    legs_done: r.legs_done,
    created_at: iso(r.created_ms),
    stop: r.stop,
  });

  const plan = (roverId: string, request: IncomingRestRequest) => {
    const { destination } = parseBody(request, PlanRouteRequestSchema);
    const r = rover(roverId);
    if (!inMap(terrain, destination.x, destination.y)) {
      throw unprocessable(
        `El destino ${describe(destination)} está fuera del mapa: x e y van de 0 a ${terrain.width - 1}.`,
        { destination },
      );
    }
    const start = indexOf(terrain, r.x, r.y);
    const goal = indexOf(terrain, destination.x, destination.y);
    const limits: PlanLimits = { maxSlopeDeg: MAX_SLOPE_DEG, avoid: store.knownHazards(r.id) };
    if (goal === start) {
      throw unprocessable(
        `El rover ${r.id} ya está en ${describe(destination)}: no hay ruta que planificar.`,
      );
    }
    if (terrain.obstacle[goal]) {
      throw unprocessable(
        `El destino ${describe(destination)} es una roca: el rover no puede ocupar esa celda. ` +
          `Elige una celda libre cercana${nearestFree(goal, limits)}.`,
        { reason: 'obstaculo', destination },
      );
    }
    if (limits.avoid?.has(goal)) {
      throw unprocessable(
        `El destino ${describe(destination)} es arena blanda que el rover ya encontró: se atascaría. ` +
          `Elige una celda libre cercana${nearestFree(goal, limits)}.`,
        { reason: 'arena_blanda', destination },
      );
    }
    const path = findPath(terrain, start, goal, limits);
    if (!path) throw unreachable(r, destination, explainUnreachable(terrain, start, goal, limits), limits);

    const legs: StoredLeg[] = cutIntoLegs(terrain, path).map((leg) => ({
      cells: leg.cells,
      from: leg.from,
      to: leg.to,
      distance_m: leg.distanceM,
      climb_m: leg.climbM,
      max_slope_deg: leg.maxSlopeDeg,
      energy_wh: legEnergyWh(leg.distanceM, leg.climbM),
    }));
    const total = {
      distance_m: sum(legs.map((l) => l.distance_m)),
      climb_m: sum(legs.map((l) => l.climb_m)),
      max_slope_deg: Math.max(...legs.map((l) => l.max_slope_deg)),
      energy_wh: sum(legs.map((l) => l.energy_wh)),
    };
    const available = r.battery_wh - RESERVE_WH;
    if (total.energy_wh > available) {
      const wait = hoursToReach(r.battery_wh, total.energy_wh + RESERVE_WH, r.clock_ms);
      throw new HttpProblem(
        409,
        'Conflict',
        `Energía insuficiente: la ruta a ${describe(destination)} mide ${round(total.distance_m)} m ` +
          `(subida ${round(total.climb_m)} m) y necesita ${round(total.energy_wh)} Wh, pero solo hay ` +
          `${round(Math.max(0, available))} Wh por encima de la reserva del ${BATTERY_RESERVE_PCT} % ` +
          `(batería al ${round(pct(r.battery_wh))} % de ${BATTERY_CAPACITY_WH} Wh). ${waitAdvice(r, wait)} ` +
          `O elige un destino más cercano: en llano el rover alcanza ahora unos ` +
          `${Math.max(0, Math.floor(available / WH_PER_M))} m.`,
        {
          reason: 'energia',
          needed_wh: round(total.energy_wh),
          available_wh: round(Math.max(0, available)),
          ...(wait === undefined ? {} : { wait_hours: wait }),
        },
      );
    }
    const row: RouteRow = {
      id: `rt-${randomBytes(6).toString('hex')}`,
      rover_id: r.id,
      status: 'planificada',
      created_ms: now(),
      legs_done: 0,
      plan: {
        origin: start,
        destination: goal,
        legs,
        ...total,
        battery_after_pct: pct(r.battery_wh - total.energy_wh),
      },
      stop: null,
    };
    store.insertRoute(row);
    return jsonResponse(201, routeDto(row));
  };

  const unreachable = (
    r: RoverRow,
    destination: Cell,
    why: ReturnType<typeof explainUnreachable>,
    limits: PlanLimits,
  ) => {
    const known = limits.avoid?.size ? ' y la arena blanda que el rover ya encontró' : '';
    return why.kind === 'pendiente'
      ? unprocessable(
          `No hay ruta de ${describe(r)} a ${describe(destination)} con pendientes de hasta ` +
            `${MAX_SLOPE_DEG}°: el camino menos empinado exige ${round(why.neededSlopeDeg)}° ` +
            '(paredes de cráter o laderas). Elige un destino fuera de esa zona.',
          { reason: 'pendiente', max_slope_deg: MAX_SLOPE_DEG, needed_slope_deg: round(why.neededSlopeDeg) },
        )
      : unprocessable(
          `No hay ruta de ${describe(r)} a ${describe(destination)}: las rocas${known} la rodean por ` +
            'completo. Elige otro destino.',
          { reason: 'obstaculos' },
        );
  };

  /** ` (p. ej. (x, y))` with the nearest cell the rover could stand on, or nothing. */
  const nearestFree = (goal: number, limits: PlanLimits): string => {
    const gx = goal % terrain.width;
    const gy = Math.floor(goal / terrain.width);
    for (let radius = 1; radius <= 4; radius++) {
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          if (Math.max(Math.abs(dx), Math.abs(dy)) !== radius || !inMap(terrain, gx + dx, gy + dy)) continue;
          const i = indexOf(terrain, gx + dx, gy + dy);
          if (!terrain.obstacle[i] && !limits.avoid?.has(i)) return `, p. ej. (${gx + dx}, ${gy + dy})`;
        }
      }
    }
    return '';
  };

  /** Drives the next leg of a route in one transaction; returns what happened. */
  const driveLeg = (roverId: string, routeId: string): { leg: LegResult; stop: Stop | null; done: boolean } =>
    store.transaction(() => {
      const r = rover(roverId);
      const route = routeOf(roverId, routeId);
      refuseIfNotDrivable(r, route);
      const index = route.legs_done;
      const leg = route.plan.legs[index]!;
      if (indexOf(terrain, r.x, r.y) !== leg.from) {
        const from = cell(leg.from);
        throw new HttpProblem(
          409,
          'Conflict',
          `La ruta ${route.id} está obsoleta: su tramo ${index + 1} empieza en ${describe(from)} y el rover ` +
            `está en ${describe(r)} (se movió después de planificarla). Planifica una ruta nueva.`,
          { route_id: route.id },
        );
      }
      if (r.battery_wh - leg.energy_wh < RESERVE_WH) {
        const wait = hoursToReach(r.battery_wh, leg.energy_wh + RESERVE_WH, r.clock_ms);
        const stop: Stop = {
          reason: 'reserva',
          detail:
            `El tramo ${index + 1} necesita ${round(leg.energy_wh)} Wh y dejaría la batería en ` +
            `${round(pct(r.battery_wh - leg.energy_wh))} %, por debajo de la reserva del ${BATTERY_RESERVE_PCT} %: ` +
            `el rover se detuvo en ${describe(r)} con ${round(pct(r.battery_wh))} %. ${waitAdvice(r, wait)}`,
          at: iso(r.clock_ms),
          x: r.x,
          y: r.y,
        };
        finish(r, route, index, stop);
        return { leg: legResult(index, r, 0, false), stop, done: false };
      }

      let here = leg.from;
      let distance = 0;
      let climb = 0;
      let stop: Stop | null = null;
      for (const next of leg.cells) {
        if (terrain.hazard[next]) {
          const seen = sandAround(next);
          store.addKnownHazards(r.id, seen, r.clock_ms);
          const sand = cell(next);
          const stopAt = cell(here);
          const clockMs = r.clock_ms + driveMs(distance);
          stop = {
            reason: 'peligro',
            detail:
              `Arena blanda detectada en ${describe(sand)}, justo delante en el tramo ${index + 1}: el rover ` +
              `se detuvo en ${describe(stopAt)} para no atascarse. Esas ${seen.length} celdas quedan marcadas ` +
              'y las rutas nuevas las evitan; planifica otra ruta desde aquí.',
            at: iso(clockMs),
            x: stopAt.x,
            y: stopAt.y,
          };
          break;
        }
        distance += moveLength(terrain, here, next);
        climb += Math.max(0, terrain.elevation[next]! - terrain.elevation[here]!);
        r.heading_deg = headingDeg(here, next);
        here = next;
      }
      const spent = stop ? legEnergyWh(distance, climb) : leg.energy_wh;
      r.x = here % terrain.width;
      r.y = Math.floor(here / terrain.width);
      r.battery_wh = Math.max(0, r.battery_wh - spent);
      r.clock_ms += driveMs(distance);
      r.odometer_m += distance;
      if (stop) {
        finish(r, route, index, stop);
        return { leg: legResult(index, r, distance, false, spent), stop, done: false };
      }
      const done = index + 1 === route.plan.legs.length;
      if (route.status === 'planificada') store.abandonOtherRoutes(r.id, route.id);
      store.updateRoute(route.id, done ? 'completada' : 'en_curso', index + 1, null);
      r.mode = done ? 'reposo' : 'en_ruta';
      r.active_route = done ? null : route.id;
      r.last_stop = null;
      store.updateRover(r);
      return { leg: legResult(index, r, distance, true, spent), stop: null, done };
    });

  /** Ends a route for safety: the route is `detenida`, the rover `detenido` where it is. */
  const finish = (r: RoverRow, route: RouteRow, index: number, stop: Stop) => {
    if (route.status === 'planificada') store.abandonOtherRoutes(r.id, route.id);
    store.updateRoute(route.id, 'detenida', index, stop);
    r.mode = 'detenido';
    r.active_route = null;
    r.last_stop = stop;
    store.updateRover(r);
  };

  const legResult = (
    index: number,
    after: RoverRow,
    distance: number,
    completed: boolean,
    energy = 0,
  ): LegResult => ({
    index: index + 1,
    to: { x: after.x, y: after.y },
    distance_m: round(distance, 2),
    energy_wh: round(energy),
    battery_pct: round(pct(after.battery_wh)),
    at: iso(after.clock_ms),
    completed,
  });

  const refuseIfNotDrivable = (r: RoverRow, route: RouteRow) => {
    const refuse = (detail: string) => {
      throw new HttpProblem(409, 'Conflict', detail, { route_id: route.id, route_status: route.status });
    };
    if (route.status === 'completada') {
      refuse(`La ruta ${route.id} ya se completó: el rover ${r.id} está en su destino ${describe(r)}.`);
    }
    if (route.status === 'detenida') {
      refuse(
        `La ruta ${route.id} se detuvo por seguridad (${route.stop?.detail ?? 'sin detalle'}) y no se ` +
          'puede reanudar: planifica una ruta nueva desde la posición actual.',
      );
    }
    if (route.status === 'abandonada') {
      refuse(
        `La ruta ${route.id} se abandonó cuando el rover empezó otra ruta; planifica una nueva desde ` +
          `${describe(r)}.`,
      );
    }
  };

  const sandAround = (center: number): number[] => {
    const cx = center % terrain.width;
    const cy = Math.floor(center / terrain.width);
    const cells: number[] = [];
    for (let dy = -SAND_SIGHT; dy <= SAND_SIGHT; dy++) {
      for (let dx = -SAND_SIGHT; dx <= SAND_SIGHT; dx++) {
        if (!inMap(terrain, cx + dx, cy + dy)) continue;
        const i = indexOf(terrain, cx + dx, cy + dy);
        if (terrain.hazard[i]) cells.push(i);
      }
    }
    return cells;
  };

  const headingDeg = (from: number, to: number) => {
    const a = cell(from);
    const b = cell(to);
    return ((Math.atan2(b.x - a.x, b.y - a.y) * 180) / Math.PI + 360) % 360;
  };

  /** Parks the rover: its clock moves on, the panels charge it by day and the parked load drains it. */
  const wait = (roverId: string, request: IncomingRestRequest): WaitResult => {
    const { hours } = parseBody(request, WaitRequestSchema);
    return store.transaction(() => {
      const r = rover(roverId);
      const before = r.battery_wh;
      const from = r.clock_ms;
      const to = from + hours * 3_600_000;
      const after = parked(before, from, to);
      r.battery_wh = after.batteryWh;
      r.clock_ms = to;
      store.updateRover(r);
      return {
        rover: roverDto(r),
        hours,
        from: iso(from),
        to: iso(to),
        solar_wh: round(after.solarWh),
        load_wh: round(after.loadWh),
        gained_wh: round(after.batteryWh - before),
        battery_before_pct: round(pct(before)),
      };
    });
  };

  const step = (roverId: string, routeId: string, request: IncomingRestRequest): StepResult => {
    const { legs } = parseBody(request, StepRequestSchema, {});
    const driven: LegResult[] = [];
    let stop: Stop | null = null;
    for (let k = 0; k < legs; k++) {
      // Each leg is committed on its own; a caller that went away stops the rover between two legs.
      if (k > 0 && request.signal?.aborted) break;
      const result = driveLeg(roverId, routeId);
      driven.push(result.leg);
      stop = result.stop;
      if (stop || result.done) break;
    }
    return {
      route: routeDto(routeOf(roverId, routeId)),
      rover: roverDto(rover(roverId)),
      legs: driven,
      stop,
    };
  };

  const handler = createRouter(
    [
      {
        method: 'GET',
        pattern: '/healthz',
        handle: () => ({ status: 'ok', system: 'roverdt', version: VERSION }),
      },
      {
        method: 'GET',
        pattern: '/v1/map',
        handle: () => {
          mapSummary ??= summarizeMap(terrain, MAX_SLOPE_DEG);
          return mapSummary;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/map/terrain',
        handle: () => {
          terrainGrid ??= gridOf(terrain);
          return terrainGrid;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/rovers/:id/hazards',
        handle: ({ params }) => ({
          cells: [...store.knownHazards(rover(params.id!).id)].sort((a, b) => a - b).map(cell),
        }),
      },
      {
        method: 'GET',
        pattern: '/v1/rovers',
        handle: () => ({ rovers: store.listRovers().map(roverDto) }),
      },
      { method: 'GET', pattern: '/v1/rovers/:id', handle: ({ params }) => roverDto(rover(params.id!)) },
      {
        method: 'GET',
        pattern: '/v1/rovers/:id/routes',
        handle: ({ params, request }) => {
          const r = rover(params.id!);
          const { limit } = parseQuery(
            request.query,
            z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
          );
          return { routes: store.listRoutes(r.id, limit).map(routeDto) };
        },
      },
      {
        method: 'POST',
        pattern: '/v1/rovers/:id/routes',
        handle: ({ params, request }) => plan(params.id!, request),
      },
      {
        method: 'GET',
        pattern: '/v1/rovers/:id/routes/:route',
        handle: ({ params }) => {
          rover(params.id!);
          return routeDto(routeOf(params.id!, params.route!));
        },
      },
      {
        method: 'POST',
        pattern: '/v1/rovers/:id/routes/:route/steps',
        handle: ({ params, request }) => step(params.id!, params.route!, request),
      },
      {
        method: 'POST',
        pattern: '/v1/rovers/:id/wait',
        handle: ({ params, request }) => wait(params.id!, request),
      },
      {
        method: 'GET',
        pattern: '/v1/rovers/:id/measurements/:instrument',
        handle: ({ params }) => {
          const r = rover(params.id!);
          const instrument = InstrumentSchema.safeParse(params.instrument);
          if (!instrument.success) {
            throw notFound(
              `El rover ${r.id} no lleva el instrumento '${params.instrument}'. Instrumentos: ` +
                `${INSTRUMENTS.join(', ')}.`,
              { instrument: params.instrument },
            );
          }
          const reading = measure(terrain, r.x, r.y, r.clock_ms, instrument.data);
          const measurement: Measurement = {
            rover_id: r.id,
            instrument: instrument.data,
            at: iso(r.clock_ms),
            x: r.x,
            y: r.y,
            ...reading,
          };
          return measurement;
        },
      },
    ],
    options.onError,
  );

  return { handler, terrain, store, close: () => store.close() };
}

/** A rover as it starts: on the nearest cell to `near` where it and its neighbours stand safely. */
function initialRover(t: Terrain, seed: RoverSeed): RoverRow {
  const start = safeCellNear(t, seed.near);
  return {
    id: seed.id,
    name: seed.name,
    x: start.x,
    y: start.y,
    heading_deg: 0,
    battery_wh: (BATTERY_CAPACITY_WH * seed.batteryPct) / 100,
    clock_ms: CLOCK_EPOCH_MS,
    odometer_m: 0,
    mode: 'reposo',
    active_route: null,
    last_stop: null,
  };
}

function safeCellNear(t: Terrain, near: Cell): Cell {
  const safe = (x: number, y: number) => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!inMap(t, x + dx, y + dy)) return false;
        const i = indexOf(t, x + dx, y + dy);
        if (t.obstacle[i] || t.hazard[i]) return false;
        const rise = Math.abs(t.elevation[i]! - t.elevation[indexOf(t, x, y)]!);
        if (Math.atan(rise / Math.hypot(dx, dy) || 0) > (MAX_SLOPE_DEG * Math.PI) / 180) return false;
      }
    }
    return true;
  };
  for (let radius = 0; radius < Math.max(t.width, t.height); radius++) {
    for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== radius) continue;
        if (safe(near.x + dx, near.y + dy)) return { x: near.x + dx, y: near.y + dy };
      }
    }
  }
  return near;
}

function parseBody<T extends z.ZodType>(
  request: IncomingRestRequest,
  schema: T,
  fallback?: unknown,
): z.output<T> {
  let raw: unknown = fallback;
  if (request.body) {
    try {
      raw = JSON.parse(request.body);
    } catch {
      raw = undefined;
    }
  }
  if (raw === undefined) throw badRequest('El cuerpo de la petición debe ser un objeto JSON.');
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.join('.') || 'cuerpo';
  const value = 'input' in issue ? `; recibido: ${JSON.stringify(issue.input)}` : '';
  throw badRequest(`Campo '${name}' inválido (${issue.message})${value}`, { field: name });
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** How long to park before the energy is there, in words a model can act on (esperar takes 1–48 h). */
function waitAdvice(r: RoverRow, hours: number | undefined): string {
  if (hours === undefined) {
    return (
      'Ni con los paneles a pleno se llega a esa energía (haría falta más que la batería llena): ve por ' +
      'etapas más cortas.'
    );
  }
  const calls =
    hours > MAX_WAIT_HOURS
      ? ` (en ${Math.ceil(hours / MAX_WAIT_HOURS)} llamadas: cada una admite hasta ${MAX_WAIT_HOURS} h)`
      : '';
  return (
    `Los paneles solares la recargan: espera unas ${hours} h del reloj del rover con esperar ` +
    `{rover_id: '${r.id}', horas: ${Math.min(hours, MAX_WAIT_HOURS)}}${calls} y vuelve a planificar.`
  );
}

/** ISO-8601 UTC without milliseconds when they are zero. */
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
