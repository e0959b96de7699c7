import type { MaintenanceWindow, ProgramMaintenanceRequest } from '@code-cluster/shared/groundstation';
import { STATIONS, type StationReference, stationOr404 } from '../reference/stations.js';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { conflictOf, describeContact, newId } from './contacts.js';
import { EQUIPMENT } from './equipment.js';
import type { GroundstationQueries, GroundstationStore, MaintenanceRow } from './store.js';

/** Longest maintenance window an operator can program at once. */
export const MAX_MAINTENANCE_MS = 90 * 24 * 3_600_000;

/** A maintenance window in Unix ms. */
export interface Window {
  id: string;
  station: string;
  startMs: number;
  endMs: number;
  reason: string;
  source: 'referencia' | 'operador';
  cancelledMs: number | null;
}

export function windowOf(row: MaintenanceRow): Window {
  return {
    id: row.id,
    station: row.station,
    startMs: row.start_ms,
    endMs: row.end_ms,
    reason: row.reason,
    source: row.source,
    cancelledMs: row.cancelled_ms,
  };
}

/**
 * The reference data's standing windows (orbiteye-cl's), as the rows the store seeds once when it is
 * created. A station the reference data puts in maintenance must say until when.
 */
export function referenceMaintenanceRows(): MaintenanceRow[] {
  return STATIONS.filter((s) => s.status === 'mantenimiento').map((s) => {
    const seed = EQUIPMENT[s.id]?.referenceMaintenance;
    if (!seed) throw new Error(`station ${s.id} is in maintenance in the reference data but has no window`);
    const startMs = Date.parse(seed.start);
    return {
      id: seed.id,
      station: s.id,
      start_ms: startMs,
      end_ms: Date.parse(seed.end),
      reason: seed.reason,
      source: 'referencia',
      created_ms: startMs,
      cancelled_ms: null,
    };
  });
}

/**
 * Where the maintenance that contains `window` really ends: windows add up, so one that starts before
 * another ends carries the station's maintenance on to its own end.
 */
export function maintenanceEnd(windows: readonly Window[], window: Window): number {
  let end = window.endMs;
  for (const w of [...windows].sort((a, b) => a.startMs - b.startMs)) {
    if (w.startMs <= end && w.endMs > end) end = w.endMs;
  }
  return end;
}

/** The window in force at `atMs` that lasts longest, if any: what a station's status reports. */
export function windowInForce(windows: readonly Window[], atMs: number): Window | undefined {
  return windows.filter((w) => w.startMs <= atMs && w.endMs > atMs).sort((a, b) => b.endMs - a.endMs)[0];
}

export function windowDto(window: Window): MaintenanceWindow {
  return {
    id: window.id,
    station: window.station,
    start: isoUtc(window.startMs),
    end: isoUtc(window.endMs),
    reason: window.reason,
    source: window.source,
    ...(window.cancelledMs === null ? {} : { cancelled_at: isoUtc(window.cancelledMs) }),
  };
}

/** Maintenance windows of a station, not cancelled, that end after `afterMs`. */
export async function windowsOf(
  store: GroundstationQueries,
  station: StationReference,
  afterMs: number,
): Promise<Window[]> {
  return (await store.maintenanceEndingAfter(station.id, afterMs)).map(windowOf);
}

/** Windows an operator programs and cancels (the operator's credential is checked before, by the router). */
export class Maintenance {
  constructor(
    private readonly store: GroundstationStore,
    private readonly now: () => number,
  ) {}

  async program(stationId: string, request: ProgramMaintenanceRequest): Promise<MaintenanceWindow> {
    const where = stationOr404(stationId);
    const nowMs = this.now();
    const startMs = Date.parse(request.start);
    const endMs = Date.parse(request.end);
    if (endMs <= startMs) {
      throw refuse.unprocessable(
        `El fin del mantenimiento (${isoUtc(endMs)}) debe ser posterior a su inicio (${isoUtc(startMs)}).`,
      );
    }
    if (endMs <= nowMs) {
      throw refuse.unprocessable(
        `El mantenimiento terminaría en el pasado (fin ${isoUtc(endMs)}; ahora son las ${isoUtc(nowMs)}).`,
      );
    }
    if (endMs - startMs > MAX_MAINTENANCE_MS) {
      throw refuse.unprocessable(
        'Una ventana de mantenimiento dura como mucho 90 días: prográmala por tramos.',
      );
    }
    // Taking turns with the bookings of the station: a contact booked on another replica meanwhile is seen.
    const row = await this.store.transaction(async (tx) => {
      const row: MaintenanceRow = {
        id: newId('mt'),
        station: where.id,
        start_ms: startMs,
        end_ms: endMs,
        reason: request.reason,
        source: 'operador',
        created_ms: nowMs,
        cancelled_ms: null,
      };
      for (;;) {
        await refuseSameWindow(tx, row);
        const booked = await tx.activeContacts(where.id, Math.max(startMs, nowMs), endMs);
        if (booked.length > 0) {
          throw refuse.conflict(
            `Hay ${booked.length} ${booked.length === 1 ? 'contacto agendado' : 'contactos agendados'} en ` +
              `${where.id} durante esa ventana: ${booked.map(describeContact).join('; ')}. ` +
              'Cancélalos antes o elige otra ventana.',
            { conflicts: booked.map(conflictOf) },
          );
        }
        // Refused by the database only when the same window was programmed meanwhile: read it and say so.
        if (await tx.insertMaintenance(row)) return row;
      }
    }, where.id);
    return windowDto(windowOf(row));
  }

  async cancel(id: string): Promise<MaintenanceWindow> {
    const nowMs = this.now();
    const row = await this.store.transaction(async (tx) => {
      const found = await tx.getMaintenance(id);
      if (!found) {
        throw refuse.notFound(
          `No existe el mantenimiento '${id}'. listar_mantenimientos muestra las ventanas de cada estación.`,
          { maintenance_id: id },
        );
      }
      if (found.cancelled_ms !== null) {
        throw refuse.conflict(
          `El mantenimiento ${id} ya estaba cancelado (desde ${isoUtc(found.cancelled_ms)}); no hay nada más ` +
            'que hacer.',
          { maintenance_id: id },
        );
      }
      if (found.end_ms <= nowMs) {
        throw refuse.conflict(
          `El mantenimiento ${id} ya terminó (${isoUtc(found.start_ms)} a ${isoUtc(found.end_ms)}): solo se ` +
            'cancelan ventanas en curso o futuras.',
          { maintenance_id: id },
        );
      }
      await tx.cancelMaintenance(id, nowMs);
      return (await tx.getMaintenance(id))!;
    });
    return windowDto(windowOf(row));
  }
}

/** Windows add up, overlapping or not; only the same window twice (a retried call) is refused. */
async function refuseSameWindow(tx: GroundstationQueries, row: MaintenanceRow): Promise<void> {
  const same = (await tx.maintenanceEndingAfter(row.station, row.start_ms)).find(
    (w) => w.start_ms === row.start_ms && w.end_ms === row.end_ms && w.reason === row.reason,
  );
  if (!same) return;
  throw refuse.conflict(
    `Esa ventana ya está programada en ${row.station}: ${same.id} de ${isoUtc(same.start_ms)} a ` +
      `${isoUtc(same.end_ms)} (${same.reason}). No se ha creado otra.`,
    { maintenance_id: same.id },
  );
}
