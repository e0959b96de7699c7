import type { MaintenanceWindow, ProgramMaintenanceRequest } from '@code-cluster/shared/groundstation';
import { STATIONS, type StationReference, stationOr404 } from '../reference/stations.js';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { conflictOf, describeContact, newId } from './contacts.js';
import { EQUIPMENT } from './equipment.js';
import type { GroundstationStore, MaintenanceRow } from './store.js';

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
export function windowsOf(store: GroundstationStore, station: StationReference, afterMs: number): Window[] {
  return store.maintenanceEndingAfter(station.id, afterMs).map(windowOf);
}

/** Windows an operator programs and cancels (the operator's credential is checked before, by the router). */
export class Maintenance {
  constructor(
    private readonly store: GroundstationStore,
    private readonly now: () => number,
  ) {}

  program(stationId: string, request: ProgramMaintenanceRequest): MaintenanceWindow {
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
    const row = this.store.transaction(() => {
      // Windows add up, overlapping or not; only the same window twice (a retried call) is refused.
      const same = this.store
        .maintenanceEndingAfter(where.id, startMs)
        .find((w) => w.start_ms === startMs && w.end_ms === endMs && w.reason === request.reason);
      if (same) {
        throw refuse.conflict(
          `Esa ventana ya está programada en ${where.id}: ${same.id} de ${isoUtc(same.start_ms)} a ` +
            `${isoUtc(same.end_ms)} (${same.reason}). No se ha creado otra.`,
          { maintenance_id: same.id },
        );
      }
      const booked = this.store.activeContacts(where.id, Math.max(startMs, nowMs), endMs);
      if (booked.length > 0) {
        throw refuse.conflict(
          `Hay ${booked.length} ${booked.length === 1 ? 'contacto agendado' : 'contactos agendados'} en ` +
            `${where.id} durante esa ventana: ${booked.map(describeContact).join('; ')}. ` +
            'Cancélalos antes o elige otra ventana.',
          { conflicts: booked.map(conflictOf) },
        );
      }
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
      this.store.insertMaintenance(row);
      return row;
    });
    return windowDto(windowOf(row));
  }

  cancel(id: string): MaintenanceWindow {
    const nowMs = this.now();
    const row = this.store.transaction(() => {
      const found = this.store.getMaintenance(id);
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
      this.store.cancelMaintenance(id, nowMs);
      return this.store.getMaintenance(id)!;
    });
    return windowDto(windowOf(row));
  }
}
