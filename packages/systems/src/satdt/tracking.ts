import type { Pass as PassDto, Passes, Position, Telemetry } from '@code-cluster/shared/satdt';
import type { StationReference } from '../reference/stations.js';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import {
  type CatalogEntry,
  elementSetAgeDays,
  findPasses,
  isSunlit,
  type Pass,
  PropagationError,
  positionAt,
  type Station,
  sunPosition,
  telemetryAt,
} from './domain/index.js';
import { warning } from './satellites.js';

/** Passes of a satellite over a station in [fromMs, fromMs + hours). */
export function passesOver(
  entry: CatalogEntry,
  where: StationReference,
  fromMs: number,
  hours: number,
): Passes {
  const toMs = fromMs + hours * 3_600_000;
  const result = propagating(entry, () => findPasses(entry.satrec, toStation(where), fromMs, toMs));
  return {
    norad_id: entry.noradId,
    name: entry.name,
    station: where.id,
    from: isoUtc(fromMs),
    to: isoUtc(toMs),
    visibility: result.visibility,
    passes: result.visibility === 'passes' ? result.passes.map(passDto) : [],
    ...(result.visibility === 'passes' ? {} : { elevation_deg: result.elevationDeg }),
    element_age_days: elementSetAgeDays(entry.satrec, fromMs),
    ...warning(entry, fromMs),
  };
}

export function positionOf(entry: CatalogEntry, atMs: number): Position {
  const p = propagating(entry, () => positionAt(entry.satrec, atMs));
  return {
    norad_id: entry.noradId,
    name: entry.name,
    at: isoUtc(atMs),
    latitude_deg: p.latitudeDeg,
    longitude_deg: p.longitudeDeg,
    altitude_km: p.altitudeKm,
    speed_km_s: p.speedKmS,
    sunlit: isSunlit(p.positionKm, sunPosition(atMs).unit),
    element_age_days: elementSetAgeDays(entry.satrec, atMs),
    ...warning(entry, atMs),
  };
}

export function telemetryOf(entry: CatalogEntry, atMs: number): Telemetry {
  const t = propagating(entry, () => telemetryAt(entry, atMs));
  return {
    norad_id: entry.noradId,
    name: entry.name,
    at: isoUtc(atMs),
    mode: t.mode,
    sunlit: t.sunlit,
    battery: { charge_pct: t.batteryPct, charging: t.charging, current_a: t.batteryCurrentA },
    power: { generated_w: t.powerGeneratedW, consumed_w: t.powerConsumedW },
    temperatures_c: { panel: t.panelTempC, battery: t.batteryTempC, electronics: t.electronicsTempC },
    element_age_days: elementSetAgeDays(entry.satrec, atMs),
    ...warning(entry, atMs),
  };
}

function passDto(p: Pass): PassDto {
  return {
    aos: isoUtc(p.aosMs),
    tca: isoUtc(p.tcaMs),
    los: isoUtc(p.losMs),
    max_elevation_deg: p.maxElevationDeg,
    aos_azimuth_deg: p.aosAzimuthDeg,
    los_azimuth_deg: p.losAzimuthDeg,
    duration_s: p.durationS,
    in_progress_at_start: p.inProgressAtStart,
    in_progress_at_end: p.inProgressAtEnd,
  };
}

function toStation(s: StationReference): Station {
  return {
    id: s.id,
    latDeg: s.latitudeDeg,
    lonDeg: s.longitudeDeg,
    altM: s.altitudeM,
    maskDeg: s.elevationMaskDeg,
  };
}

/**
 * The twin refuses some instants (too far from the epoch, a decayed orbit, an unphysical state): a 422
 * the model can act on.
 */
function propagating<T>(entry: CatalogEntry, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof PropagationError) {
      // An out-of-span refusal already names the instants that work.
      const hint =
        error.kind === 'out-of-span'
          ? ''
          : ' Prueba con un instante más cercano a la época de sus elementos.';
      throw refuse.unprocessable(
        `No se puede propagar ${entry.name} (NORAD ${entry.noradId}) a ese instante: ${error.message}.${hint}`,
      );
    }
    throw error;
  }
}
