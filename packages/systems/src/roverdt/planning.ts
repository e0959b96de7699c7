import { randomBytes } from 'node:crypto';
import { BATTERY_RESERVE_PCT, type Cell, MAX_SLOPE_DEG, type Route } from '@code-cluster/shared/roverdt';
import { refuse } from '../refusal.js';
import { waitAdvice } from './charging.js';
import { describe, type Fleet } from './fleet.js';
import { BATTERY_CAPACITY_WH, hoursToReach, legEnergyWh, pct, RESERVE_WH, round, WH_PER_M } from './model.js';
import { cutIntoLegs, explainUnreachable, findPath, type PlanLimits } from './planner.js';
import type { RouteRow, RoverRow, StoredLeg } from './store.js';
import { indexOf, inMap } from './terrain.js';

/** Routes planned from where a rover stands: refused, with the reason and what to do, when it cannot go. */
export class Planning {
  constructor(
    private readonly fleet: Fleet,
    private readonly now: () => number,
  ) {}

  async plan(roverId: string, destination: Cell): Promise<Route> {
    const { terrain, store } = this.fleet;
    const r = await this.fleet.rover(roverId);
    if (!inMap(terrain, destination.x, destination.y)) {
      throw refuse.unprocessable(
        `El destino ${describe(destination)} está fuera del mapa: x e y van de 0 a ${terrain.width - 1}.`,
        { destination },
      );
    }
    const start = indexOf(terrain, r.x, r.y);
    const goal = indexOf(terrain, destination.x, destination.y);
    const limits: PlanLimits = { maxSlopeDeg: MAX_SLOPE_DEG, avoid: await store.knownHazards(r.id) };
    this.checkGoal(r, destination, start, goal, limits);
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
    checkEnergy(r, destination, total);
    const row: RouteRow = {
      id: `rt-${randomBytes(6).toString('hex')}`,
      rover_id: r.id,
      status: 'planificada',
      created_ms: this.now(),
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
    await store.insertRoute(row);
    return this.fleet.routeDto(row, store);
  }

  /** A goal the rover cannot stand on (where it is, a rock, known soft sand) is refused before any search. */
  private checkGoal(r: RoverRow, destination: Cell, start: number, goal: number, limits: PlanLimits): void {
    if (goal === start) {
      throw refuse.unprocessable(
        `El rover ${r.id} ya está en ${describe(destination)}: no hay ruta que planificar.`,
      );
    }
    if (this.fleet.terrain.obstacle[goal]) {
      throw refuse.unprocessable(
        `El destino ${describe(destination)} es una roca: el rover no puede ocupar esa celda. ` +
          `Elige una celda libre cercana${this.nearestFree(goal, limits)}.`,
        { reason: 'obstaculo', destination },
      );
    }
    if (limits.avoid?.has(goal)) {
      throw refuse.unprocessable(
        `El destino ${describe(destination)} es arena blanda que el rover ya encontró: se atascaría. ` +
          `Elige una celda libre cercana${this.nearestFree(goal, limits)}.`,
        { reason: 'arena_blanda', destination },
      );
    }
  }

  /** ` (p. ej. (x, y))` with the nearest cell the rover could stand on, or nothing. */
  private nearestFree(goal: number, limits: PlanLimits): string {
    const { terrain } = this.fleet;
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
  }
}

function checkEnergy(
  r: RoverRow,
  destination: Cell,
  total: { distance_m: number; climb_m: number; energy_wh: number },
): void {
  const available = r.battery_wh - RESERVE_WH;
  if (total.energy_wh <= available) return;
  const wait = hoursToReach(r.battery_wh, total.energy_wh + RESERVE_WH, r.clock_ms);
  throw refuse.conflict(
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

function unreachable(
  r: RoverRow,
  destination: Cell,
  why: ReturnType<typeof explainUnreachable>,
  limits: PlanLimits,
) {
  const known = limits.avoid?.size ? ' y la arena blanda que el rover ya encontró' : '';
  return why.kind === 'pendiente'
    ? refuse.unprocessable(
        `No hay ruta de ${describe(r)} a ${describe(destination)} con pendientes de hasta ` +
          `${MAX_SLOPE_DEG}°: el camino menos empinado exige ${round(why.neededSlopeDeg)}° ` +
          '(paredes de cráter o laderas). Elige un destino fuera de esa zona.',
        { reason: 'pendiente', max_slope_deg: MAX_SLOPE_DEG, needed_slope_deg: round(why.neededSlopeDeg) },
      )
    : refuse.unprocessable(
        `No hay ruta de ${describe(r)} a ${describe(destination)}: las rocas${known} la rodean por ` +
          'completo. Elige otro destino.',
        { reason: 'obstaculos' },
      );
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
