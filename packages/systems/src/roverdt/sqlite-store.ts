import { openDatabase, type SqlDatabase, sqliteTurns } from '../storage/index.js';
import {
  jsonText,
  type RawRoute,
  type RawRover,
  ROUTE_COLUMNS,
  ROVER_COLUMNS,
  type RoverdtStatements,
  type RoverdtStore,
  routeFrom,
  roverFrom,
  roverValues,
} from './store.js';

/** The SQLite schema, unchanged since the twin's first release: existing files keep working. */
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

export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The rover twin's store on a SQLite file. The driver is synchronous and the interface is not, so every
 * call, and every transaction whole, runs in turn on one queue: no other request's statement can land
 * between a transaction's BEGIN and COMMIT. Between processes, BEGIN IMMEDIATE's write lock does the same.
 */
export function openRoverdtStore(file: string): RoverdtStore {
  const db: SqlDatabase = openDatabase(file, { migrations: MIGRATIONS });
  const statements = sqliteStatements(db);
  const turns = sqliteTurns(db, statements);
  return {
    ...turns.queries,
    where: file,
    transaction: turns.transaction,
    close: turns.close,
  };
}

function sqliteStatements(db: SqlDatabase): RoverdtStatements {
  const getMeta = db.prepare('SELECT value FROM meta WHERE key = ?');
  const setMeta = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const getRover = db.prepare(`SELECT ${ROVER_COLUMNS} FROM rover WHERE id = ?`);
  const listRovers = db.prepare(`SELECT ${ROVER_COLUMNS} FROM rover ORDER BY id`);
  const claimRover = db.prepare(
    `UPDATE rover SET mode = 'en_ruta', active_route = ?
     WHERE id = ? AND ((x = ? AND y = ? AND active_route IS ?) OR active_route = ?)`,
  );
  const insertRover = db.prepare(
    `INSERT OR IGNORE INTO rover (${ROVER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateRover = db.prepare(
    `UPDATE rover SET x = ?, y = ?, heading_deg = ?, battery_wh = ?, clock_ms = ?, odometer_m = ?, mode = ?,
       active_route = ?, last_stop = ?
     WHERE id = ?`,
  );
  const insertRoute = db.prepare(`INSERT INTO route (${ROUTE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const getRoute = db.prepare(`SELECT ${ROUTE_COLUMNS} FROM route WHERE id = ?`);
  const listRoutes = db.prepare(
    `SELECT ${ROUTE_COLUMNS} FROM route WHERE rover_id = ? ORDER BY rowid DESC LIMIT ?`,
  );
  const updateRoute = db.prepare('UPDATE route SET status = ?, legs_done = ?, stop = ? WHERE id = ?');
  const abandon = db.prepare(
    `UPDATE route SET status = 'abandonada' WHERE rover_id = ? AND status = 'en_curso' AND id <> ?`,
  );
  const knownHazards = db.prepare('SELECT cell FROM known_hazard WHERE rover_id = ?');
  const addHazard = db.prepare(
    'INSERT OR IGNORE INTO known_hazard (rover_id, cell, found_ms) VALUES (?, ?, ?)',
  );

  const rover = (id: string) => {
    const raw = getRover.get<RawRover>(id);
    return raw && roverFrom(raw);
  };
  return {
    seed: async () => {
      const row = getMeta.get<{ value: string }>('seed');
      return row ? Number(row.value) : undefined;
    },
    setSeed: async (seed) => {
      setMeta.run('seed', String(seed));
    },
    getRover: async (id) => rover(id),
    // The transaction's BEGIN IMMEDIATE holds the whole file: the row is as locked as it gets.
    lockRover: async (id) => rover(id),
    claimRover: async (id, routeId, at, heldBy) =>
      claimRover.run(routeId, id, at.x, at.y, heldBy, routeId).changes === 1,
    listRovers: async () => listRovers.all<RawRover>().map(roverFrom),
    insertRover: async (r) => {
      insertRover.run(r.id, r.name, ...roverValues(r));
    },
    updateRover: async (r) => {
      updateRover.run(...roverValues(r), r.id);
    },
    insertRoute: async (r) => {
      insertRoute.run(
        r.id,
        r.rover_id,
        r.status,
        r.created_ms,
        r.legs_done,
        JSON.stringify(r.plan),
        jsonText(r.stop),
      );
    },
    getRoute: async (id) => {
      const raw = getRoute.get<RawRoute>(id);
      return raw && routeFrom(raw);
    },
    listRoutes: async (roverId, limit) => listRoutes.all<RawRoute>(roverId, limit).map(routeFrom),
    updateRoute: async (id, status, legsDone, stop) => {
      updateRoute.run(status, legsDone, jsonText(stop), id);
    },
    abandonOtherRoutes: async (roverId, keep) => {
      abandon.run(roverId, keep);
    },
    knownHazards: async (roverId) => new Set(knownHazards.all<{ cell: number }>(roverId).map((r) => r.cell)),
    addKnownHazards: async (roverId, cells, foundMs) => {
      for (const cell of cells) addHazard.run(roverId, cell, foundMs);
    },
  };
}
