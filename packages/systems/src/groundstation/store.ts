import { openDatabase, type SqlDatabase } from '../storage/index.js';
import { referenceMaintenanceRows } from './maintenance.js';

/** A booked contact as stored: times in Unix ms. */
export interface ContactRow {
  id: string;
  station: string;
  antenna: string;
  norad_id: number;
  start_ms: number;
  end_ms: number;
  status: 'programado' | 'cancelado';
  created_ms: number;
  cancelled_ms: number | null;
}

/** A maintenance window: seeded from the reference data, or programmed by an operator. */
export interface MaintenanceRow {
  id: string;
  station: string;
  start_ms: number;
  end_ms: number;
  reason: string;
  source: 'referencia' | 'operador';
  created_ms: number;
  cancelled_ms: number | null;
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

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

/** The ground station's storage: every SQL statement of the system lives here. */
export interface GroundstationStore {
  readonly file: string;
  /** Runs `work` in one write transaction, so a check and the write it guards see the same data. */
  transaction<T>(work: () => T): T;
  insertContact(row: ContactRow): void;
  getContact(id: string): ContactRow | undefined;
  /** Contacts not cancelled that overlap [fromMs, toMs), by start; of one antenna when given. */
  activeContacts(station: string, fromMs: number, toMs: number, antenna?: string): ContactRow[];
  cancelContact(id: string, atMs: number): void;
  insertMaintenance(row: MaintenanceRow): void;
  getMaintenance(id: string): MaintenanceRow | undefined;
  /** Windows of a station not cancelled that end after `afterMs`, by start. */
  maintenanceEndingAfter(station: string, afterMs: number): MaintenanceRow[];
  cancelMaintenance(id: string, atMs: number): void;
  close(): void;
}

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

  return {
    file,
    transaction: (work) => db.transaction(work),
    insertContact: (r) => {
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
    },
    getContact: (id) => getContact.get<ContactRow>(id),
    activeContacts: (station, fromMs, toMs, antenna) =>
      antenna === undefined
        ? activeContacts.all<ContactRow>(station, toMs, fromMs)
        : activeContactsOn.all<ContactRow>(station, antenna, toMs, fromMs),
    cancelContact: (id, atMs) => {
      cancelContact.run(atMs, id);
    },
    insertMaintenance: (r) => {
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
    },
    getMaintenance: (id) => getMaintenance.get<MaintenanceRow>(id),
    maintenanceEndingAfter: (station, afterMs) =>
      maintenanceEndingAfter.all<MaintenanceRow>(station, afterMs),
    cancelMaintenance: (id, atMs) => {
      cancelMaintenance.run(atMs, id);
    },
    close: () => db.close(),
  };
}
