import type { RouteStatus, Stop } from '@code-cluster/shared/roverdt';

/** A rover as stored. */
export interface RoverRow {
  id: string;
  name: string;
  x: number;
  y: number;
  heading_deg: number;
  battery_wh: number;
  /** Simulated clock, Unix ms. */
  clock_ms: number;
  odometer_m: number;
  mode: 'reposo' | 'en_ruta' | 'detenido';
  active_route: string | null;
  last_stop: Stop | null;
}

/** One leg of a stored plan; cells are map indices (y * width + x). */
export interface StoredLeg {
  cells: number[];
  from: number;
  to: number;
  distance_m: number;
  climb_m: number;
  max_slope_deg: number;
  energy_wh: number;
}

export interface StoredPlan {
  origin: number;
  destination: number;
  legs: StoredLeg[];
  distance_m: number;
  climb_m: number;
  max_slope_deg: number;
  energy_wh: number;
  battery_after_pct: number;
}

export interface RouteRow {
  id: string;
  rover_id: string;
  status: RouteStatus;
  created_ms: number;
  legs_done: number;
  plan: StoredPlan;
  stop: Stop | null;
}

type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };
export type RawRover = Raw<RoverRow, 'last_stop'>;
export type RawRoute = Raw<RouteRow, 'plan' | 'stop'>;

/** The columns a rover and a route are read with, in the order both engines' statements name them. */
export const ROVER_COLUMNS =
  'id, name, x, y, heading_deg, battery_wh, clock_ms, odometer_m, mode, active_route, last_stop';
export const ROUTE_COLUMNS = 'id, rover_id, status, created_ms, legs_done, plan, stop';

/** A stored rover as the use cases see it: its last stop parsed. */
export const roverFrom = (raw: RawRover): RoverRow => ({
  ...raw,
  last_stop: raw.last_stop === null ? null : (JSON.parse(raw.last_stop) as Stop),
});

/** A stored route as the use cases see it: its plan and stop parsed. */
export const routeFrom = (raw: RawRoute): RouteRow => ({
  ...raw,
  plan: JSON.parse(raw.plan ?? '{}') as StoredPlan,
  stop: raw.stop === null ? null : (JSON.parse(raw.stop) as Stop),
});

/** A JSON column's text, or null. */
export const jsonText = (value: unknown) => (value === null ? null : JSON.stringify(value));

/** A rover's columns as the statements that write it take them, after its id. */
export const roverValues = (r: RoverRow) =>
  [
    r.x,
    r.y,
    r.heading_deg,
    r.battery_wh,
    r.clock_ms,
    r.odometer_m,
    r.mode,
    r.active_route,
    jsonText(r.last_stop),
  ] as const;

/**
 * Every statement of the rover twin, on either engine (sqlite-store.ts, postgres-store.ts). Called on the
 * store, each runs on its own; called on a transaction's statements, inside that transaction.
 */
export interface RoverdtStatements {
  /** The terrain seed this store was written for, if any. */
  seed(): Promise<number | undefined>;
  setSeed(seed: number): Promise<void>;
  getRover(id: string): Promise<RoverRow | undefined>;
  /**
   * The rover, its row locked until the transaction ends, so two drivers of one rover (two replicas) take
   * turns: `SELECT … FOR UPDATE` on PostgreSQL; on SQLite the transaction's write lock already holds it.
   */
  lockRover(id: string): Promise<RoverRow | undefined>;
  /**
   * Starting a route: the rover becomes `en_ruta` on `routeId` only if it still stands at `at` held by
   * `heldBy` (the route it was on when read, or null), or if `routeId` holds it already. One conditional
   * update: false when another driver moved or took the rover first, and then nothing changed.
   */
  claimRover(
    id: string,
    routeId: string,
    at: { x: number; y: number },
    heldBy: string | null,
  ): Promise<boolean>;
  listRovers(): Promise<RoverRow[]>;
  /** Adds a rover unless one with that id exists. */
  insertRover(row: RoverRow): Promise<void>;
  updateRover(row: RoverRow): Promise<void>;
  insertRoute(row: RouteRow): Promise<void>;
  getRoute(id: string): Promise<RouteRow | undefined>;
  /** A rover's routes, newest first. */
  listRoutes(roverId: string, limit: number): Promise<RouteRow[]>;
  updateRoute(id: string, status: RouteStatus, legsDone: number, stop: Stop | null): Promise<void>;
  /** Marks the rover's other paused routes `abandonada`: it set off on `keep`. */
  abandonOtherRoutes(roverId: string, keep: string): Promise<void>;
  knownHazards(roverId: string): Promise<Set<number>>;
  addKnownHazards(roverId: string, cells: readonly number[], foundMs: number): Promise<void>;
}

/** The rover twin's storage, on SQLite (a file) or PostgreSQL (schema `roverdt`). */
export interface RoverdtStore extends RoverdtStatements {
  /** Where the rovers are kept, for messages: the SQLite file, or the PostgreSQL URL without its password. */
  readonly where: string;
  /** Runs `work` in one write transaction: a leg is committed whole or not at all. */
  transaction<T>(work: (tx: RoverdtStatements) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
