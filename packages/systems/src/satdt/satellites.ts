import type { Satellite, SatelliteSummary } from '@code-cluster/shared/satdt';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import {
  type Catalog,
  type CatalogEntry,
  elementSetAgeDays,
  elementWarning,
  type GeosynchronousKind,
  orbitalElements,
} from './domain/index.js';

/** The catalog entry of a NORAD id as the path gives it; a 404 refusal naming the catalog when none is. */
export function satelliteOr404(catalog: Catalog, id: string): CatalogEntry {
  const noradId = Number(id);
  const entry = Number.isInteger(noradId) ? catalog.get(noradId) : undefined;
  if (!entry) {
    throw refuse.notFound(
      `No hay ningún satélite con NORAD ${id} en el catálogo del gemelo (${catalog.size} satélites; ` +
        'el recurso satdt://catalogo los lista).',
      { norad_id: id },
    );
  }
  return entry;
}

/** The catalog's satellites whose name contains `search`, or whose NORAD id starts with it. */
export function searchSatellites(catalog: Catalog, search: string | undefined, atMs: number) {
  const needle = search?.trim().toLowerCase();
  return [...catalog.values()]
    .filter((e) => !needle || e.name.toLowerCase().includes(needle) || `${e.noradId}`.startsWith(needle))
    .map((e) => summary(e, atMs));
}

const SUBTYPES: Readonly<Record<GeosynchronousKind, NonNullable<SatelliteSummary['subtype']>>> = {
  geostationary: 'geoestacionaria',
  inclined: 'geosincrona_inclinada',
  eccentric: 'geosincrona_excentrica',
};

export function summary(entry: CatalogEntry, atMs: number): SatelliteSummary {
  const { regime, geosynchronousKind, epoch } = orbitalElements(entry.satrec);
  const { origin, location, format, loadedAtMs } = entry.source;
  return {
    norad_id: entry.noradId,
    name: entry.name,
    cospar_id: entry.cosparId,
    regime,
    ...(geosynchronousKind ? { subtype: SUBTYPES[geosynchronousKind] } : {}),
    status: entry.status,
    epoch,
    age_days: elementSetAgeDays(entry.satrec, atMs),
    element_source: {
      origin,
      location,
      format,
      ...(origin === 'catalogo_incluido' ? {} : { loaded_at: isoUtc(loadedAtMs) }),
    },
  };
}

/** The staleness warning of an element set at an instant, as an optional member of an answer. */
export function warning(entry: CatalogEntry, atMs: number): { element_warning?: string } {
  const text = elementWarning(entry.satrec, atMs);
  return text === undefined ? {} : { element_warning: text };
}

export function detail(entry: CatalogEntry, atMs: number): Satellite {
  const e = orbitalElements(entry.satrec);
  const staleness = elementWarning(entry.satrec, atMs);
  return {
    ...summary(entry, atMs),
    elements: {
      epoch: e.epoch,
      age_days: elementSetAgeDays(entry.satrec, atMs),
      inclination_deg: e.inclinationDeg,
      eccentricity: e.eccentricity,
      mean_motion_rev_day: e.meanMotionRevPerDay,
      period_min: e.periodMin,
      semi_major_axis_km: e.semiMajorAxisKm,
      apogee_km: e.apogeeAltitudeKm,
      perigee_km: e.perigeeAltitudeKm,
      raan_deg: e.raanDeg,
      arg_perigee_deg: e.argOfPerigeeDeg,
      mean_anomaly_deg: e.meanAnomalyDeg,
      bstar: entry.satrec.bstar,
      ...(staleness === undefined ? {} : { warning: staleness }),
    },
    ...(entry.line1 && entry.line2 ? { tle: { line1: entry.line1, line2: entry.line2 } } : {}),
    source: entry.source.location,
  };
}
