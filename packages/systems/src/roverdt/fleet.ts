import {
  BATTERY_RESERVE_PCT,
  type Cell,
  INSTRUMENTS,
  InstrumentSchema,
  type Measurement,
  type Route,
  type Rover,
} from '@code-cluster/shared/roverdt';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { measure } from './instruments.js';
import { BATTERY_CAPACITY_WH, pct, round, solarW } from './model.js';
import type { RouteRow, RoverdtStatements, RoverdtStore, RoverRow } from './store.js';
import { indexOf, type Terrain } from './terrain.js';

/** The rovers and their routes as stored, looked up by id and shown as the API's resources. */
export class Fleet {
  constructor(
    readonly store: RoverdtStore,
    readonly terrain: Terrain,
  ) {}

  /** The rover; with `lock`, its row locked until `db`'s transaction ends (see RoverdtStatements.lockRover). */
  async rover(id: string, db: RoverdtStatements = this.store, lock = false): Promise<RoverRow> {
    const found = await (lock ? db.lockRover(id) : db.getRover(id));
    if (!found) {
      const known = (await db.listRovers()).map((r) => r.id);
      throw refuse.notFound(`No existe el rover '${id}'. Rovers disponibles: ${known.join(', ')}.`, {
        rover_id: id,
      });
    }
    return found;
  }

  async route(roverId: string, routeId: string, db: RoverdtStatements = this.store): Promise<RouteRow> {
    const found = await db.getRoute(routeId);
    if (!found || found.rover_id !== roverId) {
      throw refuse.notFound(
        `El rover ${roverId} no tiene ninguna ruta '${routeId}'. planificar_ruta crea una y da su ruta_id.`,
        { route_id: routeId },
      );
    }
    return found;
  }

  cell(i: number): Cell {
    return { x: i % this.terrain.width, y: Math.floor(i / this.terrain.width) };
  }

  async hazards(roverId: string): Promise<Cell[]> {
    return [...(await this.store.knownHazards((await this.rover(roverId)).id))]
      .sort((a, b) => a - b)
      .map((i) => this.cell(i));
  }

  /** What an instrument reads where the rover stands, at its clock; an instrument it lacks is a 404. */
  async measurement(roverId: string, name: string): Promise<Measurement> {
    const r = await this.rover(roverId);
    const instrument = InstrumentSchema.safeParse(name);
    if (!instrument.success) {
      throw refuse.notFound(
        `El rover ${r.id} no lleva el instrumento '${name}'. Instrumentos: ${INSTRUMENTS.join(', ')}.`,
        { instrument: name },
      );
    }
    const reading = measure(this.terrain, r.x, r.y, r.clock_ms, instrument.data);
    return {
      rover_id: r.id,
      instrument: instrument.data,
      at: isoUtc(r.clock_ms),
      x: r.x,
      y: r.y,
      ...reading,
    };
  }

  async roverDto(r: RoverRow, db: RoverdtStatements = this.store): Promise<Rover> {
    const knownHazards = (await db.knownHazards(r.id)).size;
    return {
      id: r.id,
      name: r.name,
      pose: {
        x: r.x,
        y: r.y,
        heading_deg: round(r.heading_deg, 1) % 360,
        elevation_m: round(this.terrain.elevation[indexOf(this.terrain, r.x, r.y)]!, 2),
      },
      battery_pct: round(pct(r.battery_wh)),
      battery_wh: round(r.battery_wh),
      battery_capacity_wh: BATTERY_CAPACITY_WH,
      reserve_pct: BATTERY_RESERVE_PCT,
      mode: r.mode,
      instruments: [...INSTRUMENTS],
      clock: isoUtc(r.clock_ms),
      solar_w: round(solarW(r.clock_ms)),
      odometer_m: round(r.odometer_m, 2),
      active_route_id: r.active_route,
      last_stop: r.last_stop,
      known_hazards: knownHazards,
    };
  }

  /** A route as the API gives it; `hazards_ahead` from the rover's known hazards as `db` sees them. */
  async routeDto(r: RouteRow, db: RoverdtStatements = this.store): Promise<Route> {
    const known = await db.knownHazards(r.rover_id);
    const ahead = new Set(
      r.plan.legs
        .slice(r.legs_done)
        .flatMap((leg) => leg.cells)
        .filter((cell) => known.has(cell)),
    );
    return {
      id: r.id,
      rover_id: r.rover_id,
      status: r.status,
      origin: this.cell(r.plan.origin),
      destination: this.cell(r.plan.destination),
      legs: r.plan.legs.map((leg, k) => ({
        index: k + 1,
        from: this.cell(leg.from),
        to: this.cell(leg.to),
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
      hazards_ahead: [...ahead].map((cell) => this.cell(cell)),
      created_at: isoUtc(r.created_ms),
      stop: r.stop,
    };
  }
}

/** A cell as the model reads it: `(x, y)`. */
export const describe = (c: Cell) => `(${c.x}, ${c.y})`;
