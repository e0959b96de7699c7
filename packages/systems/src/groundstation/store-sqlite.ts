import { openDatabase, type SqlDatabase, sqliteTurns } from '../storage/index.js';
import { referenceMaintenanceRows } from './maintenance.js';
import {
  type ContactRow,
  type GroundstationQueries,
  type GroundstationStore,
  type MaintenanceRow,
  sqlText,
} from './store.js';

const MIGRATIONS = [
  `CREATE TABLE contact (
     id TEXT PRIMARY KEY,
     station TEXT NOT NULL,
     antenna TEXT NOT NULL,
     norad_id INTEGER NOT NULL CHECK (norad_id > 0),
     start_ms INTEGER NOT NULL,
     end_ms INTEGER NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('programado', 'cancelado')),
     created_ms INTEGER NOT NULL,
     cancelled_ms INTEGER,
     CHECK (end_ms > start_ms)
   );
   CREATE INDEX contact_by_antenna ON contact (station, antenna, start_ms);
   CREATE TABLE maintenance (
     id TEXT PRIMARY KEY,
     station TEXT NOT NULL,
     start_ms INTEGER NOT NULL,
     end_ms INTEGER NOT NULL,
     reason TEXT NOT NULL,
     created_ms INTEGER NOT NULL,
     CHECK (end_ms > start_ms)
   );
   CREATE INDEX maintenance_by_station ON maintenance (station, start_ms);`,
  // Windows become stored rows with fixed ends, the reference one included: seeded here, once.
  `ALTER TABLE maintenance ADD COLUMN source TEXT NOT NULL DEFAULT 'operador'
     CHECK (source IN ('referencia', 'operador'));
   ALTER TABLE maintenance ADD COLUMN cancelled_ms INTEGER;
   ${referenceMaintenanceRows()
     .map(
       (r) =>
         `INSERT INTO maintenance (id, station, start_ms, end_ms, reason, source, created_ms)
          VALUES (${sqlText(r.id)}, ${sqlText(r.station)}, ${r.start_ms}, ${r.end_ms}, ${sqlText(r.reason)},
                  'referencia', ${r.created_ms});`,
     )
     .join('\n')}`,
];

/** How many migrations this build knows: the `user_version` a file is at once opened. */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The contact book on a SQLite file. The driver is synchronous; the interface is not, so every call goes
 * through one queue per store: a transaction holds the queue from BEGIN to COMMIT, and no call of another
 * request can run on the connection in between (it would see, or write into, the open transaction).
 */
export function openGroundstationStore(file: string): GroundstationStore {
  const db: SqlDatabase = openDatabase(file, { migrations: MIGRATIONS });
  const insertContact = db.prepare(
    `INSERT INTO contact (id, station, antenna, norad_id, start_ms, end_ms, status, created_ms, cancelled_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const getContact = db.prepare('SELECT * FROM contact WHERE id = ?');
  const activeContacts = db.prepare(
    `SELECT * FROM contact WHERE station = ? AND status = 'programado' AND start_ms < ? AND end_ms > ?
     ORDER BY start_ms, antenna`,
  );
  const activeContactsOn = db.prepare(
    `SELECT * FROM contact
     WHERE station = ? AND antenna = ? AND status = 'programado' AND start_ms < ? AND end_ms > ?
     ORDER BY start_ms`,
  );
  const cancelContact = db.prepare(
    `UPDATE contact SET status = 'cancelado', cancelled_ms = ? WHERE id = ? AND status = 'programado'`,
  );
  const insertMaintenance = db.prepare(
    `INSERT INTO maintenance (id, station, start_ms, end_ms, reason, source, created_ms, cancelled_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const getMaintenance = db.prepare('SELECT * FROM maintenance WHERE id = ?');
  const maintenanceEndingAfter = db.prepare(
    'SELECT * FROM maintenance WHERE station = ? AND end_ms > ? AND cancelled_ms IS NULL ORDER BY start_ms, id',
  );
  const cancelMaintenance = db.prepare(
    'UPDATE maintenance SET cancelled_ms = ? WHERE id = ? AND cancelled_ms IS NULL',
  );

  /** The statements themselves, run at once: what a transaction's body calls while it holds the queue. */
  const direct: GroundstationQueries = {
    insertContact: async (r) => {
      insertContact.run(
        r.id,
        r.station,
        r.antenna,
        r.norad_id,
        r.start_ms,
        r.end_ms,
        r.status,
        r.created_ms,
        r.cancelled_ms,
      );
      return true;
    },
    getContact: async (id) => getContact.get<ContactRow>(id),
    activeContacts: async (station, fromMs, toMs, antenna) =>
      antenna === undefined
        ? activeContacts.all<ContactRow>(station, toMs, fromMs)
        : activeContactsOn.all<ContactRow>(station, antenna, toMs, fromMs),
    cancelContact: async (id, atMs) => {
      cancelContact.run(atMs, id);
    },
    insertMaintenance: async (r) => {
      insertMaintenance.run(
        r.id,
        r.station,
        r.start_ms,
        r.end_ms,
        r.reason,
        r.source,
        r.created_ms,
        r.cancelled_ms,
      );
      return true;
    },
    getMaintenance: async (id) => getMaintenance.get<MaintenanceRow>(id),
    maintenanceEndingAfter: async (station, afterMs) =>
      maintenanceEndingAfter.all<MaintenanceRow>(station, afterMs),
    cancelMaintenance: async (id, atMs) => {
      cancelMaintenance.run(atMs, id);
    },
  };

  const turns = sqliteTurns(db, direct);
  return {
    where: file,
    ...turns.queries,
    transaction: turns.transaction,
    close: turns.close,
  };
}
