import {
  BATTERY_RESERVE_PCT,
  type Cell,
  type LegResult,
  type Route,
  type Rover,
  type StepResult,
  type Stop,
} from '@code-cluster/shared/roverdt';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { waitAdvice } from './charging.js';
import { describe, type Fleet } from './fleet.js';
import { driveMs, hoursToReach, legEnergyWh, pct, RESERVE_WH, round } from './model.js';
import { moveLength } from './planner.js';
import type { RouteRow, RoverdtStatements, RoverRow } from './store.js';
import { indexOf, inMap } from './terrain.js';

/** Soft sand the hazard camera makes out around the cell that stopped the rover, cells. */
const SAND_SIGHT = 2;

interface Driven {
  leg: LegResult;
  stop: Stop | null;
  done: boolean;
  /** The route and the rover as the leg's transaction left them. */
  route: Route;
  rover: Rover;
}

/**
 * How many times a route's start is tried again when another driver changed the rover between the read
 * and the claim: each retry needs another commit in between, so more than a few means a bug, not a race.
 */
const CLAIM_ATTEMPTS = 16;

/**
 * A planned route driven leg by leg, each leg one transaction; the rover stops itself for safety. Two
 * drivers of one rover (two requests, two replicas on one database) never fork its state: starting a route
 * is one conditional update of the rover row (only if it still stands where it was read, on the route it
 * was read on), and every leg's transaction locks the rover row and checks that the route still holds it.
 */
export class Driving {
  constructor(private readonly fleet: Fleet) {}

  /** Up to `legs` legs; a caller that went away (`signal`) stops the rover between two legs. */
  async step(roverId: string, routeId: string, legs: number, signal?: AbortSignal): Promise<StepResult> {
    const driven: LegResult[] = [];
    let last: Driven | undefined;
    for (let k = 0; k < legs; k++) {
      if (k > 0 && signal?.aborted) break;
      last = await this.driveLeg(roverId, routeId);
      driven.push(last.leg);
      if (last.stop || last.done) break;
    }
    return { route: last!.route, rover: last!.rover, legs: driven, stop: last!.stop };
  }

  /** Drives the next leg of a route in one transaction; returns what happened. */
  private async driveLeg(roverId: string, routeId: string): Promise<Driven> {
    const { fleet } = this;
    for (let attempt = 1; attempt <= CLAIM_ATTEMPTS; attempt++) {
      const seen = await fleet.rover(roverId);
      const planned = await fleet.route(roverId, routeId);
      const start = planned.status === 'planificada' ? planned.plan.legs[0]!.from : undefined;
      if (start !== undefined && indexOf(fleet.terrain, seen.x, seen.y) !== start) {
        throw stale(seen, planned, 0, fleet.cell(start));
      }
      const driven = await fleet.store.transaction(async (tx) => {
        if (
          start !== undefined &&
          !(await tx.claimRover(roverId, routeId, fleet.cell(start), seen.active_route))
        ) {
          return undefined;
        }
        const r = await fleet.rover(roverId, tx, true);
        return this.legOf(tx, r, await fleet.route(roverId, routeId, tx));
      });
      if (driven) return driven;
    }
    throw new Error(
      `rover ${roverId}: route ${routeId} could not claim the rover in ${CLAIM_ATTEMPTS} attempts`,
    );
  }

  /** The next leg of `route`, inside `tx`, with the rover row `r` locked. */
  private async legOf(tx: RoverdtStatements, r: RoverRow, route: RouteRow): Promise<Driven> {
    const { terrain } = this.fleet;
    refuseIfNotDrivable(r, route);
    const index = route.legs_done;
    const leg = route.plan.legs[index]!;
    if (indexOf(terrain, r.x, r.y) !== leg.from) throw stale(r, route, index, this.fleet.cell(leg.from));
    let driven: Omit<Driven, 'route' | 'rover'>;
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
      await this.finish(tx, r, route, index, stop);
      driven = { leg: legResult(index, r, 0, false), stop, done: false };
    } else {
      driven = await this.drive(tx, r, route, index);
    }
    const after = await this.fleet.route(r.id, route.id, tx);
    return {
      ...driven,
      route: await this.fleet.routeDto(after, tx),
      rover: await this.fleet.roverDto(r, tx),
    };
  }

  /** Moves along the leg's cells, stopping before soft sand; records where the rover ends. */
  private async drive(
    tx: RoverdtStatements,
    r: RoverRow,
    route: RouteRow,
    index: number,
  ): Promise<Omit<Driven, 'route' | 'rover'>> {
    const { terrain } = this.fleet;
    const leg = route.plan.legs[index]!;
    let here = leg.from;
    let distance = 0;
    let climb = 0;
    let stop: Stop | null = null;
    for (const next of leg.cells) {
      if (terrain.hazard[next]) {
        stop = await this.sandStop(tx, r, index, here, next, distance);
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
      await this.finish(tx, r, route, index, stop);
      return { leg: legResult(index, r, distance, false, spent), stop, done: false };
    }
    const done = index + 1 === route.plan.legs.length;
    if (route.status === 'planificada') await tx.abandonOtherRoutes(r.id, route.id);
    await tx.updateRoute(route.id, done ? 'completada' : 'en_curso', index + 1, null);
    r.mode = done ? 'reposo' : 'en_ruta';
    r.active_route = done ? null : route.id;
    r.last_stop = null;
    await tx.updateRover(r);
    return { leg: legResult(index, r, distance, true, spent), stop: null, done };
  }

  /** Soft sand just ahead: the cells the camera sees become known hazards, and the rover stops here. */
  private async sandStop(
    tx: RoverdtStatements,
    r: RoverRow,
    index: number,
    here: number,
    next: number,
    distance: number,
  ): Promise<Stop> {
    const seen = this.sandAround(next);
    await tx.addKnownHazards(r.id, seen, r.clock_ms);
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
  private async finish(tx: RoverdtStatements, r: RoverRow, route: RouteRow, index: number, stop: Stop) {
    if (route.status === 'planificada') await tx.abandonOtherRoutes(r.id, route.id);
    await tx.updateRoute(route.id, 'detenida', index, stop);
    r.mode = 'detenido';
    r.active_route = null;
    r.last_stop = stop;
    await tx.updateRover(r);
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
  if (route.status === 'en_curso' && r.active_route !== route.id) {
    const holder = r.active_route ? `lo lleva la ruta ${r.active_route}` : 'ya no está en ninguna ruta';
    throw refuse.conflict(
      `La ruta ${route.id} ya no lleva el rover ${r.id}: ${holder}. Consulta estado_rover y planifica ` +
        `desde ${describe(r)} si hace falta.`,
      { ...details, held_by: r.active_route },
    );
  }
}

/** A route whose next leg starts where the rover no longer is; names the route that holds it, if one does. */
function stale(r: RoverRow, route: RouteRow, index: number, from: Cell) {
  const holder =
    r.active_route && r.active_route !== route.id ? `: ahora lo lleva la ruta ${r.active_route}` : '';
  return refuse.conflict(
    `La ruta ${route.id} está obsoleta: su tramo ${index + 1} empieza en ${describe(from)} y el rover está ` +
      `en ${describe(r)} (se movió después de planificarla${holder}). Planifica una ruta nueva.`,
    { route_id: route.id, ...(holder ? { held_by: r.active_route } : {}) },
  );
}
