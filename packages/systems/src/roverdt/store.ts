import type { RouteStatus, Stop } from '@code-cluster/shared/roverdt';
import { openDatabase, type SqlDatabase } from '../storage/index.js';

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

const MIGRATIONS = [
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE rover (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     x INTEGER NOT NULL,
     y INTEGER NOT NULL,
     heading_deg REAL NOT NULL,
     battery_wh REAL NOT NULL CHECK (battery_wh >= 0),
     clock_ms INTEGER NOT NULL,
     odometer_m REAL NOT NULL,
     mode TEXT NOT NULL CHECK (mode IN ('reposo', 'en_ruta', 'detenido')),
     active_route TEXT,
     last_stop TEXT
   );
   CREATE TABLE route (
     id TEXT PRIMARY KEY,
     rover_id TEXT NOT NULL REFERENCES rover (id),
     status TEXT NOT NULL
       CHECK (status IN ('planificada', 'en_curso', 'completada', 'detenida', 'abandonada')),
     created_ms INTEGER NOT NULL,
     legs_done INTEGER NOT NULL,
     plan TEXT NOT NULL,
     stop TEXT
   );
   CREATE INDEX route_by_rover ON route (rover_id);
   CREATE TABLE known_hazard (
     rover_id TEXT NOT NULL REFERENCES rover (id),
     cell INTEGER NOT NULL,
     found_ms INTEGER NOT NULL,
     PRIMARY KEY (rover_id, cell)
   );`,
];

type Raw<T, K extends keyof T> = Omit<T, K> & { [P in K]: string | null };

/** The rover twin's storage: every SQL statement of the system lives here. */
export interface RoverdtStore {
  readonly file: string;
  /** Runs `work` in one write transaction: a leg is committed whole or not at all. */
  transaction<T>(work: () => T): T;
  /** The terrain seed this file was written for, if any. */
  seed(): number | undefined;
  setSeed(seed: number): void;
  getRover(id: string): RoverRow | undefined;
  listRovers(): RoverRow[];
  /** Adds a rover unless one with that id exists. */
  insertRover(row: RoverRow): void;
  updateRover(row: RoverRow): void;
  insertRoute(row: RouteRow): void;
  getRoute(id: string): RouteRow | undefined;
  /** A rover's routes, newest first. */
  listRoutes(roverId: string, limit: number): RouteRow[];
  updateRoute(id: string, status: RouteStatus, legsDone: number, stop: Stop | null): void;
  /** Marks the rover's other paused routes `abandonada`: it set off on `keep`. */
  abandonOtherRoutes(roverId: string, keep: string): void;
  knownHazards(roverId: string): Set<number>;
  addKnownHazards(roverId: string, cells: readonly number[], foundMs: number): void;
  close(): void;
}

export function openRoverdtStore(file: string): RoverdtStore {
  const db: SqlDatabase = openDatabase(file, { migrations: MIGRATIONS });
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const getRover = db.prepare('SELECT * FROM rover WHERE id = ?');
  const listRovers = db.prepare('SELECT * FROM rover ORDER BY id');
  const insertRover = db.prepare(
    `INSERT OR IGNORE INTO rover
       (id, name, x, y, heading_deg, battery_wh, clock_ms, odometer_m, mode, active_route, last_stop)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateRover = db.prepare(
    `UPDATE rover SET x = ?, y = ?, heading_deg = ?, battery_wh = ?, clock_ms = ?, odometer_m = ?, mode = ?,
       active_route = ?, last_stop = ?
     WHERE id = ?`,
  );
  const insertRoute = db.prepare(
    'INSERT INTO route (id, rover_id, status, created_ms, legs_done, plan, stop) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const getRoute = db.prepare('SELECT * FROM route WHERE id = ?');
  const listRoutes = db.prepare('SELECT * FROM route WHERE rover_id = ? ORDER BY rowid DESC LIMIT ?');
  const updateRoute = db.prepare('UPDATE route SET status = ?, legs_done = ?, stop = ? WHERE id = ?');
  const abandon = db.prepare(
    `UPDATE route SET status = 'abandonada' WHERE rover_id = ? AND status = 'en_curso' AND id <> ?`,
  );
  const knownHazards = db.prepare('SELECT cell FROM known_hazard WHERE rover_id = ?');
  const addHazard = db.prepare(
    'INSERT OR IGNORE INTO known_hazard (rover_id, cell, found_ms) VALUES (?, ?, ?)',
  );

  const rover = (raw: Raw<RoverRow, 'last_stop'> | undefined): RoverRow | undefined =>
    raw && { ...raw, last_stop: raw.last_stop === null ? null : (JSON.parse(raw.last_stop) as Stop) };
  const route = (raw: Raw<RouteRow, 'plan' | 'stop'> | undefined): RouteRow | undefined =>
    raw && {
      ...raw,
      plan: JSON.parse(raw.plan ?? '{}') as StoredPlan,
      stop: raw.stop === null ? null : (JSON.parse(raw.stop) as Stop),
    };
  const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

  return {
    file,
    transaction: (work) => db.transaction(work),
    seed: () => {
      const row = getMeta.get<{ value: string }>('seed');
      return row ? Number(row.value) : undefined;
    },
    setSeed: (seed) => {
      setMeta.run('seed', String(seed));
    },
    getRover: (id) => rover(getRover.get(id)),
    listRovers: () => listRovers.all<Raw<RoverRow, 'last_stop'>>().map((r) => rover(r)!),
    insertRover: (r) => {
      insertRover.run(
        r.id,
        r.name,
        r.x,
        r.y,
        r.heading_deg,
        r.battery_wh,
        r.clock_ms,
        r.odometer_m,
        r.mode,
        r.active_route,
        json(r.last_stop),
      );
    },
    updateRover: (r) => {
      updateRover.run(
        r.x,
        r.y,
        r.heading_deg,
        r.battery_wh,
        r.clock_ms,
        r.odometer_m,
        r.mode,
        r.active_route,
        json(r.last_stop),
        r.id,
      );
    },
    insertRoute: (r) => {
      insertRoute.run(
        r.id,
        r.rover_id,
        r.status,
        r.created_ms,
        r.legs_done,
        JSON.stringify(r.plan),
        json(r.stop),
      );
    },
    getRoute: (id) => route(getRoute.get(id)),
    listRoutes: (roverId, limit) =>
      listRoutes.all<Raw<RouteRow, 'plan' | 'stop'>>(roverId, limit).map((r) => route(r)!),
    updateRoute: (id, status, legsDone, stop) => {
      updateRoute.run(status, legsDone, json(stop), id);
    },
    abandonOtherRoutes: (roverId, keep) => {
      abandon.run(roverId, keep);
    },
    knownHazards: (roverId) => new Set(knownHazards.all<{ cell: number }>(roverId).map((r) => r.cell)),
    addKnownHazards: (roverId, cells, foundMs) => {
      for (const cell of cells) addHazard.run(roverId, cell, foundMs);
    },
    close: () => db.close(),
  };
}
