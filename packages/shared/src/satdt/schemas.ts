import { z } from 'zod';

/** REST resources of the satellite digital twin (satdt). Both the system and its client use these. */

const isoTime = z.iso.datetime({ offset: false });

export const NoradIdSchema = z.int().min(1).max(339_999);

export const RegimeSchema = z.enum(['LEO', 'MEO', 'GEO', 'HEO']);
export type Regime = z.infer<typeof RegimeSchema>;

/** For GEO only: whether the satellite stays put in the sky (values in Spanish: they reach the MCP surface). */
export const GeosynchronousSubtypeSchema = z.enum([
  'geoestacionaria',
  'geosincrona_inclinada',
  'geosincrona_excentrica',
]);
export type GeosynchronousSubtype = z.infer<typeof GeosynchronousSubtypeSchema>;

/**
 * Given when the answer lies far enough from the element-set epoch (either side) for its regime that the
 * error matters; Spanish, it says what goes wrong in that regime.
 */
const ElementWarningSchema = z.string().optional();

export const OperationalStatusSchema = z.enum(['operativo', 'retirado']);

/** Where a satellite's current element set came from (origin values in Spanish: they reach the MCP surface). */
export const ElementSourceSchema = z.object({
  origin: z.enum(['catalogo_incluido', 'archivo', 'url']),
  /** The file or URL; for the shipped catalog, where its credits are. */
  location: z.string(),
  format: z.enum(['tle', 'omm']),
  /** When the twin took the set in; absent for the shipped catalog. */
  loaded_at: isoTime.optional(),
});
export type ElementSource = z.infer<typeof ElementSourceSchema>;

export const SatelliteSummarySchema = z.object({
  norad_id: NoradIdSchema,
  name: z.string(),
  cospar_id: z.string(),
  regime: RegimeSchema,
  subtype: GeosynchronousSubtypeSchema.optional(),
  status: OperationalStatusSchema,
  /** Epoch of the current element set and its age at the moment of the answer. */
  epoch: isoTime,
  age_days: z.number(),
  element_source: ElementSourceSchema,
});
export type SatelliteSummary = z.infer<typeof SatelliteSummarySchema>;

export const SatelliteListSchema = z.object({ satellites: z.array(SatelliteSummarySchema) });

export const ElementsSchema = z.object({
  epoch: isoTime,
  /** Age of the element set at the moment of the answer; propagation degrades as it grows. */
  age_days: z.number(),
  inclination_deg: z.number(),
  eccentricity: z.number(),
  mean_motion_rev_day: z.number(),
  period_min: z.number(),
  semi_major_axis_km: z.number(),
  apogee_km: z.number(),
  perigee_km: z.number(),
  raan_deg: z.number(),
  arg_perigee_deg: z.number(),
  mean_anomaly_deg: z.number(),
  bstar: z.number(),
  warning: ElementWarningSchema,
});

export const SatelliteSchema = SatelliteSummarySchema.extend({
  elements: ElementsSchema,
  /** The set's TLE lines; absent for a set that came as OMM. */
  tle: z.object({ line1: z.string(), line2: z.string() }).optional(),
  source: z.string(),
});

const SourceReportSchema = z.object({
  origin: z.enum(['archivo', 'url']),
  location: z.string(),
  result: z.enum(['actualizada', 'sin_cambios', 'no_modificada', 'rechazada', 'inaccesible']),
  reason: z.string().optional(),
  sets: z.int(),
  updated: z.array(z.int()),
  added: z.array(z.int()),
  older: z.array(z.int()),
  unchanged: z.array(z.int()),
});

/** What `POST /v1/elements/refresh` did, source by source. */
export const RefreshReportSchema = z.object({
  at: isoTime,
  sources: z.array(SourceReportSchema),
  satellites: z.int(),
});
export type RefreshReport = z.infer<typeof RefreshReportSchema>;
export type Satellite = z.infer<typeof SatelliteSchema>;

/** The cluster's stations (CONTRACT.md reference data): the twin computes passes over exactly these. */
export const STATION_IDS = ['orbiteye-mx', 'orbiteye-cl', 'orbiteye-es'] as const;

export const StationSchema = z.object({
  id: z.string(),
  name: z.string(),
  latitude_deg: z.number().min(-90).max(90),
  longitude_deg: z.number().min(-180).max(180),
  altitude_m: z.number(),
  elevation_mask_deg: z.number().min(0).max(90),
});
export type Station = z.infer<typeof StationSchema>;
export const StationListSchema = z.object({ stations: z.array(StationSchema) });

export const PassSchema = z.object({
  aos: isoTime,
  tca: isoTime,
  los: isoTime,
  max_elevation_deg: z.number(),
  aos_azimuth_deg: z.number(),
  los_azimuth_deg: z.number(),
  duration_s: z.number(),
  /** The satellite was already above the mask when the window opened (AOS is the window start). */
  in_progress_at_start: z.boolean(),
  /** Still above the mask when the window closed (LOS is the window end). */
  in_progress_at_end: z.boolean(),
});
export type Pass = z.infer<typeof PassSchema>;

export const PassesSchema = z.object({
  norad_id: NoradIdSchema,
  name: z.string(),
  station: z.string(),
  from: isoTime,
  to: isoTime,
  /** `passes`: a list of passes; `always`/`never`: a geosynchronous satellite that does not rise or set. */
  visibility: z.enum(['passes', 'always', 'never']),
  passes: z.array(PassSchema),
  /** Elevation at `from`, given for `always`/`never`. */
  elevation_deg: z.number().optional(),
  element_age_days: z.number(),
  element_warning: ElementWarningSchema,
});
export type Passes = z.infer<typeof PassesSchema>;

export const PositionSchema = z.object({
  norad_id: NoradIdSchema,
  name: z.string(),
  at: isoTime,
  latitude_deg: z.number(),
  longitude_deg: z.number(),
  altitude_km: z.number(),
  speed_km_s: z.number(),
  sunlit: z.boolean(),
  element_age_days: z.number(),
  element_warning: ElementWarningSchema,
});
export type Position = z.infer<typeof PositionSchema>;

export const TelemetrySchema = z.object({
  norad_id: NoradIdSchema,
  name: z.string(),
  at: isoTime,
  mode: z.enum(['nominal', 'ahorro', 'seguro', 'inactivo']),
  sunlit: z.boolean(),
  battery: z.object({
    charge_pct: z.number().min(0).max(100),
    charging: z.boolean(),
    /** Positive while charging, negative while discharging. */
    current_a: z.number(),
  }),
  power: z.object({ generated_w: z.number(), consumed_w: z.number() }),
  temperatures_c: z.object({ panel: z.number(), battery: z.number(), electronics: z.number() }),
  element_age_days: z.number(),
  element_warning: ElementWarningSchema,
});
export type Telemetry = z.infer<typeof TelemetrySchema>;

export const HealthSchema = z.object({ status: z.literal('ok'), system: z.string(), version: z.string() });
