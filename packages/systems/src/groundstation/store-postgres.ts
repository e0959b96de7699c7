import { openPostgres, type PgDatabase, type PgQueries } from '../storage/index.js';
import { referenceMaintenanceRows } from './maintenance.js';
import {
  type ContactRow,
  type GroundstationQueries,
  type GroundstationStore,
  type MaintenanceRow,
  sqlText,
} from './store.js';

/**
 * The schema `groundstation` on PostgreSQL. Times are `timestamptz` (`inicio`/`fin` of a contact or a
 * window); the rest of the system speaks Unix ms, converted here and nowhere else. The database itself
 * refuses what the booking rules refuse within one table:
 * - `contact_antenna_free`: two contacts not cancelled on one antenna of a station at the same time;
 * - `contact_satellite_once`: one satellite on two antennas of a station at the same time;
 * - `maintenance_once`: the same window (station, ends, reason) programmed twice.
 * The rule across the two tables (no contact inside a maintenance window) is kept by the use cases under
 * a per-station advisory transaction lock that both the booking and the programming take.
 */
const MIGRATIONS = [
  `CREATE EXTENSION IF NOT EXISTS btree_gist;
   CREATE TABLE contact (
     id text PRIMARY KEY,
     station text NOT NULL,
     antenna text NOT NULL,
     norad_id integer NOT NULL CHECK (norad_id > 0),
     inicio timestamptz NOT NULL,
     fin timestamptz NOT NULL,
     status text NOT NULL CHECK (status IN ('programado', 'cancelado')),
     created_at timestamptz NOT NULL,
     cancelled_at timestamptz,
     CHECK (fin > inicio),
     CONSTRAINT contact_antenna_free EXCLUDE USING gist
       (station WITH =, antenna WITH =, tstzrange(inicio, fin) WITH &&) WHERE (status = 'programado'),
     CONSTRAINT contact_satellite_once EXCLUDE USING gist
       (station WITH =, norad_id WITH =, tstzrange(inicio, fin) WITH &&) WHERE (status = 'programado')
   );
   CREATE TABLE maintenance (
     id text PRIMARY KEY,
     station text NOT NULL,
     inicio timestamptz NOT NULL,
     fin timestamptz NOT NULL,
     reason text NOT NULL,
     source text NOT NULL CHECK (source IN ('referencia', 'operador')),
     created_at timestamptz NOT NULL,
     cancelled_at timestamptz,
     CHECK (fin > inicio)
   );
   CREATE INDEX maintenance_by_station ON maintenance (station, fin) WHERE cancelled_at IS NULL;
   CREATE UNIQUE INDEX maintenance_once ON maintenance (station, inicio, fin, reason)
     WHERE cancelled_at IS NULL;
   ${referenceMaintenanceRows()
     .map(
       (r) =>
         `INSERT INTO maintenance (id, station, inicio, fin, reason, source, created_at)
          VALUES (${sqlText(r.id)}, ${sqlText(r.station)}, ${sqlText(isoOf(r.start_ms))},
                  ${sqlText(isoOf(r.end_ms))}, ${sqlText(r.reason)}, 'referencia',
                  ${sqlText(isoOf(r.created_ms))});`,
     )
     .join('\n')}`,
];

/** How many migrations this build knows: `groundstation.schema_version` once opened. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** The latest instant written as a date; later bounds ("no end") are PostgreSQL's `infinity`. */
const LAST_DATE_MS = Date.parse('9999-12-31T23:59:59.999Z');

function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** A bound of a query in Unix ms, as a timestamptz parameter. */
function at(ms: number): string {
  return ms >= LAST_DATE_MS ? 'infinity' : ms <= -LAST_DATE_MS ? '-infinity' : isoOf(ms);
}

const msOf = (value: Date) => value.getTime();
const msOrNull = (value: Date | null) => (value === null ? null : value.getTime());

interface PgContact {
  id: string;
  station: string;
  antenna: string;
  norad_id: number;
  inicio: Date;
  fin: Date;
  status: ContactRow['status'];
  created_at: Date;
  cancelled_at: Date | null;
}

interface PgMaintenance {
  id: string;
  station: string;
  inicio: Date;
  fin: Date;
  reason: string;
  source: MaintenanceRow['source'];
  created_at: Date;
  cancelled_at: Date | null;
}

const contactOf = (r: PgContact): ContactRow => ({
  id: r.id,
  station: r.station,
  antenna: r.antenna,
  norad_id: r.norad_id,
  start_ms: msOf(r.inicio),
  end_ms: msOf(r.fin),
  status: r.status,
  created_ms: msOf(r.created_at),
  cancelled_ms: msOrNull(r.cancelled_at),
});

const maintenanceOf = (r: PgMaintenance): MaintenanceRow => ({
  id: r.id,
  station: r.station,
  start_ms: msOf(r.inicio),
  end_ms: msOf(r.fin),
  reason: r.reason,
  source: r.source,
  created_ms: msOf(r.created_at),
  cancelled_ms: msOrNull(r.cancelled_at),
});

/** SQLSTATE of a statement the database refused: 23P01 exclusion, 23505 unique. */
const sqlState = (error: unknown) => (error as { code?: unknown } | null)?.code;

export interface PostgresStoreOptions {
  url: string;
  /** The schema (default `groundstation`); tests give each world one of its own. */
  schema?: string;
  poolSize?: number;
  queryTimeoutMs?: number;
  connectTimeoutMs?: number;
  onError?: (error: unknown) => void;
}

/** Opens the pool and migrates the schema; rejects when PostgreSQL cannot be used at `url`. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<GroundstationStore> {
  const db: PgDatabase = await openPostgres({
    url: options.url,
    system: 'groundstation',
    ...(options.schema ? { schema: options.schema } : {}),
    migrations: MIGRATIONS,
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });

  /**
   * One insert the database may refuse by its own rules (`refusedBy`, a SQLSTATE): false then. Inside a
   * transaction the refused statement is rolled back to a savepoint, so the transaction goes on and the
   * caller can read who holds the slot.
   */
  const insertUnless = async (
    q: PgQueries,
    inTransaction: boolean,
    refusedBy: string,
    sql: string,
    params: unknown[],
  ): Promise<boolean> => {
    if (inTransaction) await q.run('SAVEPOINT groundstation_insert');
    try {
      await q.run(sql, params);
    } catch (error) {
      if (sqlState(error) !== refusedBy) throw error;
      if (inTransaction) await q.run('ROLLBACK TO SAVEPOINT groundstation_insert');
      return false;
    }
    if (inTransaction) await q.run('RELEASE SAVEPOINT groundstation_insert');
    return true;
  };

  const queries = (q: PgQueries, inTransaction: boolean): GroundstationQueries => ({
    insertContact: (r) =>
      insertUnless(
        q,
        inTransaction,
        '23P01',
        `INSERT INTO contact (id, station, antenna, norad_id, inicio, fin, status, created_at, cancelled_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          r.id,
          r.station,
          r.antenna,
          r.norad_id,
          at(r.start_ms),
          at(r.end_ms),
          r.status,
          at(r.created_ms),
          r.cancelled_ms === null ? null : at(r.cancelled_ms),
        ],
      ),
    getContact: async (id) => {
      const row = await q.row<PgContact>('SELECT * FROM contact WHERE id = $1', [id]);
      return row && contactOf(row);
    },
    activeContacts: async (station, fromMs, toMs, antenna) =>
      (
        await q.rows<PgContact>(
          `SELECT * FROM contact
           WHERE station = $1 AND ($4::text IS NULL OR antenna = $4) AND status = 'programado'
             AND inicio < $2 AND fin > $3
           ORDER BY inicio, antenna COLLATE "C"`,
          [station, at(toMs), at(fromMs), antenna ?? null],
        )
      ).map(contactOf),
    cancelContact: async (id, atMs) => {
      await q.run(
        `UPDATE contact SET status = 'cancelado', cancelled_at = $1 WHERE id = $2 AND status = 'programado'`,
        [at(atMs), id],
      );
    },
    insertMaintenance: (r) =>
      insertUnless(
        q,
        inTransaction,
        '23505',
        `INSERT INTO maintenance (id, station, inicio, fin, reason, source, created_at, cancelled_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          r.id,
          r.station,
          at(r.start_ms),
          at(r.end_ms),
          r.reason,
          r.source,
          at(r.created_ms),
          r.cancelled_ms === null ? null : at(r.cancelled_ms),
        ],
      ),
    getMaintenance: async (id) => {
      const row = await q.row<PgMaintenance>('SELECT * FROM maintenance WHERE id = $1', [id]);
      return row && maintenanceOf(row);
    },
    maintenanceEndingAfter: async (station, afterMs) =>
      (
        await q.rows<PgMaintenance>(
          `SELECT * FROM maintenance WHERE station = $1 AND fin > $2 AND cancelled_at IS NULL
           ORDER BY inicio, id COLLATE "C"`,
          [station, at(afterMs)],
        )
      ).map(maintenanceOf),
    cancelMaintenance: async (id, atMs) => {
      await q.run('UPDATE maintenance SET cancelled_at = $1 WHERE id = $2 AND cancelled_at IS NULL', [
        at(atMs),
        id,
      ]);
    },
  });

  return {
    where: `${db.where} (schema ${db.schema})`,
    ...queries(db, false),
    transaction: (work, station) =>
      db.transaction(async (tx) => {
        // Held until COMMIT or ROLLBACK: the booking and the programming of one station take turns.
        if (station !== undefined)
          await tx.run("SELECT pg_advisory_xact_lock(hashtext('gs:' || $1))", [station]);
        return work(queries(tx, true));
      }),
    close: () => db.close(),
  };
}

/** `code-systems migrate groundstation`: creates or upgrades the schema at `url`; what it did, in one line. */
export async function migratePostgres(url: string, schema?: string): Promise<string> {
  const db = await openPostgres({
    url,
    system: 'groundstation',
    ...(schema ? { schema } : {}),
    migrations: MIGRATIONS,
  });
  try {
    const row = await db.row<{ version: number }>('SELECT version FROM schema_version');
    return `groundstation: schema ${db.schema} at version ${row?.version} on ${db.where}`;
  } finally {
    await db.close();
  }
}
