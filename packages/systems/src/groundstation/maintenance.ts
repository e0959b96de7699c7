import type { MaintenanceWindow } from '@code-cluster/shared/groundstation';
import type { StationReference } from '../reference/stations.js';
import type { StationEquipment } from './equipment.js';
import type { MaintenanceRow } from './store.js';
import { iso } from './time.js';

const DAY = 86_400_000;
/** How long the standing maintenance of a station in maintenance lasts, from the start of today (UTC). */
export const REFERENCE_MAINTENANCE_DAYS = 30;

/** A maintenance window in Unix ms, whichever its source. */
export interface Window {
  id: string;
  station: string;
  startMs: number;
  endMs: number;
  reason: string;
  source: 'referencia' | 'operador';
}

/**
 * The maintenance windows of a station that end after `afterMs`. A station whose reference status is
 * `mantenimiento` has a standing window from the start of the current UTC day to 30 days later, derived
 * from the clock so that it is always current; once an operator programs windows for the station, their
 * plan replaces it.
 */
export function maintenanceWindows(
  station: StationReference,
  equipment: StationEquipment,
  programmed: readonly MaintenanceRow[],
  nowMs: number,
  afterMs: number,
): Window[] {
  const windows: Window[] = programmed
    .filter((row) => row.end_ms > afterMs)
    .map((row) => ({
      id: row.id,
      station: row.station,
      startMs: row.start_ms,
      endMs: row.end_ms,
      reason: row.reason,
      source: 'operador',
    }));
  const operatorPlans = programmed.some((row) => row.end_ms > nowMs);
  if (station.status === 'mantenimiento' && !operatorPlans) {
    const startMs = Math.floor(nowMs / DAY) * DAY;
    const endMs = startMs + REFERENCE_MAINTENANCE_DAYS * DAY;
    if (endMs > afterMs) {
      windows.unshift({
        id: `ref-${station.id}`,
        station: station.id,
        startMs,
        endMs,
        reason: equipment.maintenanceReason ?? 'Mantenimiento programado',
        source: 'referencia',
      });
    }
  }
  return windows.sort((a, b) => a.startMs - b.startMs);
}

export function windowDto(window: Window): MaintenanceWindow {
  return {
    id: window.id,
    station: window.station,
    start: iso(window.startMs),
    end: iso(window.endMs),
    reason: window.reason,
    source: window.source,
  };
}
