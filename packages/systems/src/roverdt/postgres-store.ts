import { openPostgres, type PgQueries } from '../storage/index.js';
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

/**
 * The schema on PostgreSQL: the tables and constraints of the SQLite file (sqlite-store.ts), plus `seq`,
 * the order routes were planned in (SQLite's rowid).
 */
const MIGRATIONS = [
  `CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE rover (
     id text PRIMARY KEY,
     name text NOT NULL,
     x integer NOT NULL,
     y integer NOT NULL,
     heading_deg double precision NOT NULL,
     battery_wh double precision NOT NULL CHECK (battery_wh >= 0),
     clock_ms bigint NOT NULL,
     odometer_m double precision NOT NULL,
     mode text NOT NULL CHECK (mode IN ('reposo', 'en_ruta', 'detenido')),
     active_route text,
     last_stop text
   );
   CREATE TABLE route (
     seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
     id text PRIMARY KEY,
     rover_id text NOT NULL REFERENCES rover (id),
     status text NOT NULL
       CHECK (status IN ('planificada', 'en_curso', 'completada', 'detenida', 'abandonada')),
     created_ms bigint NOT NULL,
     legs_done integer NOT NULL,
     plan text NOT NULL,
     stop text
   );
   CREATE INDEX route_by_rover ON route (rover_id, seq);
   CREATE TABLE known_hazard (
     rover_id text NOT NULL REFERENCES rover (id),
     cell integer NOT NULL,
     found_ms bigint NOT NULL,
     PRIMARY KEY (rover_id, cell)
   );`,
];

export const PG_SCHEMA_VERSION = MIGRATIONS.length;

export interface PgStoreOptions {
  /** The schema of the tables; `roverdt` unless a test wants one of its own. */
  schema?: string;
  onError?: (error: unknown) => void;
}

/**
 * The rover twin's store on PostgreSQL (`ROVERDT_DATABASE_URL`): its schema migrated on open, once even when
 * replicas open together. Rejects when the engine does not answer or the schema cannot be set up.
 */
export async function openRoverdtPgStore(url: string, options: PgStoreOptions = {}): Promise<RoverdtStore> {
  const db = await openPostgres({
    url,
    system: 'roverdt',
    schema: options.schema ?? 'roverdt',
    migrations: MIGRATIONS,
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return {
    ...pgStatements(db),
    where: db.where,
    transaction: (work) => db.transaction((tx) => work(pgStatements(tx))),
    close: () => db.close(),
  };
}

function pgStatements(q: PgQueries): RoverdtStatements {
  const rover = async (sql: string, id: string) => {
    const raw = await q.row<RawRover>(sql, [id]);
    return raw && roverFrom(raw);
  };
  return {
    seed: async () => {
      const row = await q.row<{ value: string }>("SELECT value FROM meta WHERE key = 'seed'");
      return row ? Number(row.value) : undefined;
    },
    setSeed: async (seed) => {
      await q.run(
        `INSERT INTO meta (key, value) VALUES ('seed', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(seed)],
      );
    },
    getRover: (id) => rover(`SELECT ${ROVER_COLUMNS} FROM rover WHERE id = $1`, id),
    lockRover: (id) => rover(`SELECT ${ROVER_COLUMNS} FROM rover WHERE id = $1 FOR UPDATE`, id),
    claimRover: async (id, routeId, at, heldBy) =>
      (await q.run(
        `UPDATE rover SET mode = 'en_ruta', active_route = $2
         WHERE id = $1 AND ((x = $3 AND y = $4 AND active_route IS NOT DISTINCT FROM $5::text)
           OR active_route = $2)`,
        [id, routeId, at.x, at.y, heldBy],
      )) === 1,
    listRovers: async () =>
      (await q.rows<RawRover>(`SELECT ${ROVER_COLUMNS} FROM rover ORDER BY id`)).map(roverFrom),
    insertRover: async (r) => {
      await q.run(
        `INSERT INTO rover (${ROVER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO NOTHING`,
        [r.id, r.name, ...roverValues(r)],
      );
    },
    updateRover: async (r) => {
      await q.run(
        `UPDATE rover SET x = $1, y = $2, heading_deg = $3, battery_wh = $4, clock_ms = $5, odometer_m = $6,
           mode = $7, active_route = $8, last_stop = $9
         WHERE id = $10`,
        [...roverValues(r), r.id],
      );
    },
    insertRoute: async (r) => {
      await q.run(`INSERT INTO route (${ROUTE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        r.id,
        r.rover_id,
        r.status,
        r.created_ms,
        r.legs_done,
        JSON.stringify(r.plan),
        jsonText(r.stop),
      ]);
    },
    getRoute: async (id) => {
      const raw = await q.row<RawRoute>(`SELECT ${ROUTE_COLUMNS} FROM route WHERE id = $1`, [id]);
      return raw && routeFrom(raw);
    },
    listRoutes: async (roverId, limit) =>
      (
        await q.rows<RawRoute>(
          `SELECT ${ROUTE_COLUMNS} FROM route WHERE rover_id = $1 ORDER BY seq DESC LIMIT $2`,
          [roverId, limit],
        )
      ).map(routeFrom),
    updateRoute: async (id, status, legsDone, stop) => {
      await q.run('UPDATE route SET status = $1, legs_done = $2, stop = $3 WHERE id = $4', [
        status,
        legsDone,
        jsonText(stop),
        id,
      ]);
    },
    abandonOtherRoutes: async (roverId, keep) => {
      await q.run(
        `UPDATE route SET status = 'abandonada' WHERE rover_id = $1 AND status = 'en_curso' AND id <> $2`,
        [roverId, keep],
      );
    },
    knownHazards: async (roverId) =>
      new Set(
        (await q.rows<{ cell: number }>('SELECT cell FROM known_hazard WHERE rover_id = $1', [roverId])).map(
          (r) => r.cell,
        ),
      ),
    addKnownHazards: async (roverId, cells, foundMs) => {
      if (cells.length === 0) return;
      await q.run(
        `INSERT INTO known_hazard (rover_id, cell, found_ms)
         SELECT $1, cell, $3 FROM unnest($2::integer[]) AS cell
         ON CONFLICT DO NOTHING`,
        [roverId, [...cells], foundMs],
      );
    },
  };
}
