import { randomBytes } from 'node:crypto';
import type { Contact } from '@code-cluster/shared/groundstation';
import { stationOr404 } from '../reference/stations.js';
import { isoUtc } from '../time.js';
import { equipmentOf } from './equipment.js';
import type { ContactRow } from './store.js';

export function contactDto(row: ContactRow, nowMs: number): Contact {
  const antenna = equipmentOf(stationOr404(row.station)).antennas.find((a) => a.id === row.antenna);
  return {
    id: row.id,
    station: row.station,
    antenna: row.antenna,
    band: antenna?.band ?? 'S',
    norad_id: row.norad_id,
    start: isoUtc(row.start_ms),
    end: isoUtc(row.end_ms),
    status:
      row.status === 'cancelado'
        ? 'cancelado'
        : nowMs < row.start_ms
          ? 'programado'
          : nowMs < row.end_ms
            ? 'en_curso'
            : 'completado',
    created_at: isoUtc(row.created_ms),
    ...(row.cancelled_ms === null ? {} : { cancelled_at: isoUtc(row.cancelled_ms) }),
  };
}

/** A contact in the words of a conflict: what, where and when. */
export function describeContact(row: ContactRow): string {
  return `contacto ${row.id} en la antena ${row.antenna} (NORAD ${row.norad_id}) de ${isoUtc(row.start_ms)} a ${isoUtc(row.end_ms)}`;
}

/** A contact as a conflict's problem details list it. */
export function conflictOf(row: ContactRow) {
  return { contact_id: row.id, antenna: row.antenna, start: isoUtc(row.start_ms), end: isoUtc(row.end_ms) };
}

export function newId(prefix: 'ct' | 'mt'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}
