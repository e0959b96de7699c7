/**
 * The ground station's storage, as the use cases see it: one async interface, two engines behind it —
 * SQLite in the data dir (store-sqlite.ts) and PostgreSQL when `GROUNDSTATION_DATABASE_URL` is set
 * (store-postgres.ts). Every SQL statement of the system lives in those two modules.
 */

/** A booked contact as the use cases see it: times in Unix ms. */
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

/** The reads and writes of the contact book, inside a transaction or on their own. */
export interface GroundstationQueries {
  /**
   * Stores a contact unless the database's own rules refuse it: no two contacts not cancelled on one
   * antenna, nor of one satellite at one station, at the same time. False when refused (PostgreSQL's
   * exclusion constraints: another writer took the slot since it was checked); SQLite serializes writers,
   * so there the check before the insert is final and this is always true.
   */
  insertContact(row: ContactRow): Promise<boolean>;
  getContact(id: string): Promise<ContactRow | undefined>;
  /** Contacts not cancelled that overlap [fromMs, toMs), by start; of one antenna when given. */
  activeContacts(station: string, fromMs: number, toMs: number, antenna?: string): Promise<ContactRow[]>;
  cancelContact(id: string, atMs: number): Promise<void>;
  /**
   * Stores a window unless the same one (station, ends, reason) is already programmed and not cancelled:
   * false then (PostgreSQL's unique index; on SQLite the check before it is final, as for contacts).
   */
  insertMaintenance(row: MaintenanceRow): Promise<boolean>;
  getMaintenance(id: string): Promise<MaintenanceRow | undefined>;
  /** Windows of a station not cancelled that end after `afterMs`, by start. */
  maintenanceEndingAfter(station: string, afterMs: number): Promise<MaintenanceRow[]>;
  cancelMaintenance(id: string, atMs: number): Promise<void>;
}

export interface GroundstationStore extends GroundstationQueries {
  /** Where the book lives, for the operator's log (a file, or a URL without its password and the schema). */
  readonly where: string;
  /**
   * Runs `work` in one write transaction on `tx`, so a check and the write it guards see the same data;
   * `work` must use `tx`, never the store itself. With `station`, the transaction is also serialized with
   * every other one given the same station, in every process on the same database (PostgreSQL: an advisory
   * transaction lock; SQLite: writers are serialized anyway), which is what keeps a rule across two tables
   * (no contact inside a maintenance window) from racing between replicas.
   */
  transaction<T>(work: (tx: GroundstationQueries) => Promise<T>, station?: string): Promise<T>;
  close(): Promise<void>;
}

/** A string as an SQL literal, for the migrations that seed the reference data's windows. */
export const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;
