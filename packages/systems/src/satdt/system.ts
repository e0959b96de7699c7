import type { RestHandler } from '@code-cluster/shared';
import type {
  Pass as PassDto,
  Passes,
  Position,
  Satellite,
  SatelliteSummary,
  Station as StationDto,
  Telemetry,
} from '@code-cluster/shared/satdt';
import { z } from 'zod';
import { HttpProblem, notFound } from '../http/problem.js';
import { createRouter, parseQuery } from '../http/router.js';
import { STATIONS, type StationReference } from '../reference/stations.js';
import { CATALOG_TLE } from './catalog-data.js';
import {
  type Catalog,
  type CatalogEntry,
  type ElementChangeListener,
  ElementStore,
  elementSetAgeDays,
  elementWarning,
  findPasses,
  type GeosynchronousKind,
  isSunlit,
  loadCatalog,
  orbitalElements,
  type Pass,
  PropagationError,
  positionAt,
  type Station,
  sunPosition,
  telemetryAt,
} from './domain/index.js';
import {
  type ElementsConfig,
  type ElementsLog,
  ElementsRefresher,
  type RefreshReport,
} from './elements-refresh.js';

export interface SatdtSystemOptions {
  /** TLE text of the catalog; the shipped CelesTrak set by default. */
  catalogTle?: string;
  /** Current element sets from a file and HTTP sources (see elements-refresh.ts); shipped ones only if unset. */
  elements?: ElementsConfig;
  /** The twin's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
  /** Where the element sources' outcomes go (stderr in the servers). */
  log?: ElementsLog;
}

export interface SatdtSystem {
  handler: RestHandler;
  /** The catalog as it is now (replaced whole on every change of the element sets). */
  readonly catalog: Catalog;
  /** Re-reads every element source; with none configured, an empty report. */
  refreshElements(): Promise<RefreshReport>;
  /** The refresh of the element URLs begun when the twin started (undefined without URLs). */
  readonly started: Promise<RefreshReport> | undefined;
  /** Runs after every change of the catalog's element sets. */
  onElementsChange(listener: ElementChangeListener): () => void;
  close(): void;
}

const MAX_WINDOW_HOURS = 168;
const isoTime = z.iso.datetime({ offset: false });
const iso = (ms: number) => new Date(ms).toISOString();

/** The satellite twin's REST API (see packages/shared/src/satdt/schemas.ts for the resources). */
export function createSatdtSystem(options: SatdtSystemOptions = {}): SatdtSystem {
  const store = new ElementStore(loadCatalog(options.catalogTle ?? CATALOG_TLE));
  const now = options.now ?? Date.now;
  const elements = options.elements ?? {};
  const refresher =
    elements.file || (elements.urls ?? []).length > 0
      ? new ElementsRefresher(store, elements, now, options.log ?? (() => {}))
      : undefined;
  const started = refresher?.start();

  // Every request reads the catalog once and works on that map to the end.
  const satellite = (id: string): CatalogEntry => {
    const catalog = store.catalog;
    const noradId = Number(id);
    const entry = Number.isInteger(noradId) ? catalog.get(noradId) : undefined;
    if (!entry) {
      throw notFound(
        `No hay ningún satélite con NORAD ${id} en el catálogo del gemelo (${catalog.size} satélites; ` +
          'el recurso satdt://catalogo los lista).',
        { norad_id: id },
      );
    }
    return entry;
  };
  const station = (id: string): StationReference => {
    const found = STATIONS.find((s) => s.id === id);
    if (!found) {
      throw notFound(
        `No existe la estación '${id}'. Estaciones disponibles: ${STATIONS.map((s) => s.id).join(', ')}.`,
        { station: id },
      );
    }
    return found;
  };
  const instant = (value: string | undefined): number => (value === undefined ? now() : Date.parse(value));

  const handler = createRouter(
    [
      {
        method: 'GET',
        pattern: '/healthz',
        handle: () => ({ status: 'ok', system: 'satdt', version: '0.1.0' }),
      },
      {
        method: 'GET',
        pattern: '/v1/satellites',
        handle: ({ request }) => {
          const { search } = parseQuery(request.query, z.object({ search: z.string().max(100).optional() }));
          const needle = search?.trim().toLowerCase();
          const atMs = now();
          const satellites = [...store.catalog.values()]
            .filter(
              (e) => !needle || e.name.toLowerCase().includes(needle) || `${e.noradId}`.startsWith(needle),
            )
            .map((e) => summary(e, atMs));
          return { satellites };
        },
      },
      {
        method: 'GET',
        pattern: '/v1/satellites/:id',
        handle: ({ params }) => detail(satellite(params.id!), now()),
      },
      {
        method: 'GET',
        pattern: '/v1/satellites/:id/passes',
        handle: ({ params, request }) => {
          const entry = satellite(params.id!);
          const query = parseQuery(
            request.query,
            z.object({
              station: z.string().min(1),
              from: isoTime.optional(),
              hours: z.coerce.number().int().min(1).max(MAX_WINDOW_HOURS).default(24),
            }),
          );
          const where = station(query.station);
          const fromMs = instant(query.from);
          const toMs = fromMs + query.hours * 3_600_000;
          const result = propagating(entry, () => findPasses(entry.satrec, toStation(where), fromMs, toMs));
          const passes: Passes = {
            norad_id: entry.noradId,
            name: entry.name,
            station: where.id,
            from: iso(fromMs),
            to: iso(toMs),
            visibility: result.visibility,
            passes: result.visibility === 'passes' ? result.passes.map(passDto) : [],
            ...(result.visibility === 'passes' ? {} : { elevation_deg: result.elevationDeg }),
            element_age_days: elementSetAgeDays(entry.satrec, fromMs),
            ...warning(entry, fromMs),
          };
          return passes;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/satellites/:id/position',
        handle: ({ params, request }) => {
          const entry = satellite(params.id!);
          const { at } = parseQuery(request.query, z.object({ at: isoTime.optional() }));
          const atMs = instant(at);
          const p = propagating(entry, () => positionAt(entry.satrec, atMs));
          const position: Position = {
            norad_id: entry.noradId,
            name: entry.name,
            at: iso(atMs),
            latitude_deg: p.latitudeDeg,
            longitude_deg: p.longitudeDeg,
            altitude_km: p.altitudeKm,
            speed_km_s: p.speedKmS,
            sunlit: isSunlit(p.positionKm, sunPosition(atMs).unit),
            element_age_days: elementSetAgeDays(entry.satrec, atMs),
            ...warning(entry, atMs),
          };
          return position;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/satellites/:id/telemetry',
        handle: ({ params, request }) => {
          const entry = satellite(params.id!);
          const { at } = parseQuery(request.query, z.object({ at: isoTime.optional() }));
          const atMs = instant(at);
          const t = propagating(entry, () => telemetryAt(entry, atMs));
          const telemetry: Telemetry = {
            norad_id: entry.noradId,
            name: entry.name,
            at: iso(atMs),
            mode: t.mode,
            sunlit: t.sunlit,
            battery: { charge_pct: t.batteryPct, charging: t.charging, current_a: t.batteryCurrentA },
            power: { generated_w: t.powerGeneratedW, consumed_w: t.powerConsumedW },
            temperatures_c: { panel: t.panelTempC, battery: t.batteryTempC, electronics: t.electronicsTempC },
            element_age_days: elementSetAgeDays(entry.satrec, atMs),
            ...warning(entry, atMs),
          };
          return telemetry;
        },
      },
      {
        method: 'POST',
        pattern: '/v1/elements/refresh',
        handle: async (): Promise<RefreshReport> =>
          refresher
            ? await refresher.refresh()
            : { at: iso(now()), sources: [], satellites: store.catalog.size },
      },
      {
        method: 'GET',
        pattern: '/v1/stations',
        handle: () => ({ stations: STATIONS.map(stationDto) }),
      },
      {
        method: 'GET',
        pattern: '/v1/stations/:id',
        handle: ({ params }) => stationDto(station(params.id!)),
      },
    ],
    options.onError,
  );

  return {
    handler,
    get catalog() {
      return store.catalog;
    },
    refreshElements: () =>
      refresher?.refresh() ??
      Promise.resolve({ at: iso(now()), sources: [], satellites: store.catalog.size }),
    started,
    onElementsChange: (listener) => store.onChange(listener),
    close: () => refresher?.close(),
  };
}

const SUBTYPES: Readonly<Record<GeosynchronousKind, NonNullable<SatelliteSummary['subtype']>>> = {
  geostationary: 'geoestacionaria',
  inclined: 'geosincrona_inclinada',
  eccentric: 'geosincrona_excentrica',
};

function summary(entry: CatalogEntry, atMs: number): SatelliteSummary {
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
      ...(origin === 'catalogo_incluido' ? {} : { loaded_at: iso(loadedAtMs) }),
    },
  };
}

function warning(entry: CatalogEntry, atMs: number): { element_warning?: string } {
  const text = elementWarning(entry.satrec, atMs);
  return text === undefined ? {} : { element_warning: text };
}

function detail(entry: CatalogEntry, atMs: number): Satellite {
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

function passDto(p: Pass): PassDto {
  return {
    aos: iso(p.aosMs),
    tca: iso(p.tcaMs),
    los: iso(p.losMs),
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

function stationDto(s: StationReference): StationDto {
  return {
    id: s.id,
    name: s.name,
    latitude_deg: s.latitudeDeg,
    longitude_deg: s.longitudeDeg,
    altitude_m: s.altitudeM,
    elevation_mask_deg: s.elevationMaskDeg,
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
      throw new HttpProblem(
        422,
        'Unprocessable Content',
        `No se puede propagar ${entry.name} (NORAD ${entry.noradId}) a ese instante: ${error.message}.${hint}`,
      );
    }
    throw error;
  }
}
