import {
  BATTERY_RESERVE_PCT,
  type LegResult,
  type StepResult,
  type Stop,
} from '@code-cluster/shared/roverdt';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { waitAdvice } from './charging.js';
import { describe, type Fleet } from './fleet.js';
import { driveMs, hoursToReach, legEnergyWh, pct, RESERVE_WH, round } from './model.js';
import { moveLength } from './planner.js';
import type { RouteRow, RoverRow } from './store.js';
import { indexOf, inMap } from './terrain.js';

/** Soft sand the hazard camera makes out around the cell that stopped the rover, cells. */
const SAND_SIGHT = 2;

interface Driven {
  leg: LegResult;
  stop: Stop | null;
  done: boolean;
}

/** A planned route driven leg by leg, each leg one transaction; the rover stops itself for safety. */
export class Driving {
  constructor(private readonly fleet: Fleet) {}

  /** Up to `legs` legs; a caller that went away (`signal`) stops the rover between two legs. */
  step(roverId: string, routeId: string, legs: number, signal?: AbortSignal): StepResult {
    const driven: LegResult[] = [];
    let stop: Stop | null = null;
    for (let k = 0; k < legs; k++) {
      if (k > 0 && signal?.aborted) break;
      const result = this.driveLeg(roverId, routeId);
      driven.push(result.leg);
      stop = result.stop;
      if (stop || result.done) break;
    }
    return {
      route: this.fleet.routeDto(this.fleet.route(roverId, routeId)),
      rover: this.fleet.roverDto(this.fleet.rover(roverId)),
      legs: driven,
      stop,
    };
  }

  /** Drives the next leg of a route in one transaction; returns what happened. */
  private driveLeg(roverId: string, routeId: string): Driven {
    const { store, terrain } = this.fleet;
    return store.transaction(() => {
      const r = this.fleet.rover(roverId);
      const route = this.fleet.route(roverId, routeId);
      refuseIfNotDrivable(r, route);
      const index = route.legs_done;
      const leg = route.plan.legs[index]!;
      if (indexOf(terrain, r.x, r.y) !== leg.from) {
        throw refuse.conflict(
          `La ruta ${route.id} está obsoleta: su tramo ${index + 1} empieza en ` +
            `${describe(this.fleet.cell(leg.from))} y el rover está en ${describe(r)} (se movió después de ` +
            'planificarla). Planifica una ruta nueva.',
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
          at: isoUtc(r.clock_ms),
          x: r.x,
          y: r.y,
        };
        this.finish(r, route, index, stop);
        return { leg: legResult(index, r, 0, false), stop, done: false };
      }
      return this.drive(r, route, index);
    });
  }

  /** Moves along the leg's cells, stopping before soft sand; records where the rover ends. */
  private drive(r: RoverRow, route: RouteRow, index: number): Driven {
    const { store, terrain } = this.fleet;
    const leg = route.plan.legs[index]!;
    let here = leg.from;
    let distance = 0;
    let climb = 0;
    let stop: Stop | null = null;
    for (const next of leg.cells) {
      if (terrain.hazard[next]) {
        stop = this.sandStop(r, index, here, next, distance);
        break;
      }
      distance += moveLength(terrain, here, next);
      climb += Math.max(0, terrain.elevation[next]! - terrain.elevation[here]!);
      r.heading_deg = this.headingDeg(here, next);
      here = next;
    }
    const spent = stop ? legEnergyWh(distance, climb) : leg.energy_wh;
    r.x = here % terrain.width;
    r.y = Math.floor(here / terrain.width);
    r.battery_wh = Math.max(0, r.battery_wh - spent);
    r.clock_ms += driveMs(distance);
    r.odometer_m += distance;
    if (stop) {
      this.finish(r, route, index, stop);
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
  }

  /** Soft sand just ahead: the cells the camera sees become known hazards, and the rover stops here. */
  private sandStop(r: RoverRow, index: number, here: number, next: number, distance: number): Stop {
    const seen = this.sandAround(next);
    this.fleet.store.addKnownHazards(r.id, seen, r.clock_ms);
    const sand = this.fleet.cell(next);
    const stopAt = this.fleet.cell(here);
    return {
      reason: 'peligro',
      detail:
        `Arena blanda detectada en ${describe(sand)}, justo delante en el tramo ${index + 1}: el rover ` +
        `se detuvo en ${describe(stopAt)} para no atascarse. Esas ${seen.length} celdas quedan marcadas ` +
        'y las rutas nuevas las evitan; planifica otra ruta desde aquí.',
      at: isoUtc(r.clock_ms + driveMs(distance)),
      x: stopAt.x,
      y: stopAt.y,
    };
  }

  /** Ends a route for safety: the route is `detenida`, the rover `detenido` where it is. */
  private finish(r: RoverRow, route: RouteRow, index: number, stop: Stop): void {
    const { store } = this.fleet;
    if (route.status === 'planificada') store.abandonOtherRoutes(r.id, route.id);
    store.updateRoute(route.id, 'detenida', index, stop);
    r.mode = 'detenido';
    r.active_route = null;
    r.last_stop = stop;
    store.updateRover(r);
  }

  private sandAround(center: number): number[] {
    const { terrain } = this.fleet;
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
  }

  private headingDeg(from: number, to: number): number {
    const a = this.fleet.cell(from);
    const b = this.fleet.cell(to);
    return ((Math.atan2(b.x - a.x, b.y - a.y) * 180) / Math.PI + 360) % 360;
  }
}

function legResult(
  index: number,
  after: RoverRow,
  distance: number,
  completed: boolean,
  energy = 0,
): LegResult {
  return {
    index: index + 1,
    to: { x: after.x, y: after.y },
    distance_m: round(distance, 2),
    energy_wh: round(energy),
    battery_pct: round(pct(after.battery_wh)),
    at: isoUtc(after.clock_ms),
    completed,
  };
}

function refuseIfNotDrivable(r: RoverRow, route: RouteRow): void {
  const details = { route_id: route.id, route_status: route.status };
  if (route.status === 'completada') {
    throw refuse.conflict(
      `La ruta ${route.id} ya se completó: el rover ${r.id} está en su destino ${describe(r)}.`,
      details,
    );
  }
  if (route.status === 'detenida') {
    throw refuse.conflict(
      `La ruta ${route.id} se detuvo por seguridad (${route.stop?.detail ?? 'sin detalle'}) y no se ` +
        'puede reanudar: planifica una ruta nueva desde la posición actual.',
      details,
    );
  }
  if (route.status === 'abandonada') {
    throw refuse.conflict(
      `La ruta ${route.id} se abandonó cuando el rover empezó otra ruta; planifica una nueva desde ` +
        `${describe(r)}.`,
      details,
    );
  }
}
