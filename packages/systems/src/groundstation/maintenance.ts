import type { MaintenanceWindow } from '@code-cluster/shared/groundstation';
import { STATIONS } from '../reference/stations.js';
import { EQUIPMENT } from './equipment.js';
import type { MaintenanceRow } from './store.js';
import { iso } from './time.js';

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
    start: iso(window.startMs),
    end: iso(window.endMs),
    reason: window.reason,
    source: window.source,
    ...(window.cancelledMs === null ? {} : { cancelled_at: iso(window.cancelledMs) }),
  };
}
