import { z } from 'zod';
import { endpoint } from '../rest/endpoint.js';
import {
  HealthSchema,
  PassesSchema,
  PositionSchema,
  RefreshReportSchema,
  SatelliteListSchema,
  SatelliteSchema,
  StationListSchema,
  StationSchema,
  TelemetrySchema,
} from './schemas.js';

/** The longest window the twin searches passes over, hours (a week). */
export const MAX_PASS_WINDOW_HOURS = 168;

const isoTime = z.iso.datetime({ offset: false });
// Ids in paths are looked up, not pattern-checked: a malformed one is one that does not exist (404,
// naming the catalog or the stations the model should pick from), the same as a well-formed unknown one.
const satellite = z.object({ id: z.string() });
const station = z.object({ id: z.string() });
const instant = z.object({ at: isoTime.optional() });

/** The satellite twin's REST API: what SatdtClient sends and the satdt system routes. */
export const satdtApi = {
  health: endpoint({ method: 'GET', path: '/healthz', response: HealthSchema }),
  listSatellites: endpoint({
    method: 'GET',
    path: '/v1/satellites',
    query: z.object({ search: z.string().max(100).optional() }),
    response: SatelliteListSchema,
  }),
  getSatellite: endpoint({
    method: 'GET',
    path: '/v1/satellites/:id',
    params: satellite,
    response: SatelliteSchema,
  }),
  passes: endpoint({
    method: 'GET',
    path: '/v1/satellites/:id/passes',
    params: satellite,
    query: z.object({
      station: z.string().min(1),
      /** ISO-8601 UTC; the system's now when omitted. */
      from: isoTime.optional(),
      hours: z.coerce.number().int().min(1).max(MAX_PASS_WINDOW_HOURS).default(24),
    }),
    response: PassesSchema,
  }),
  position: endpoint({
    method: 'GET',
    path: '/v1/satellites/:id/position',
    params: satellite,
    query: instant,
    response: PositionSchema,
  }),
  telemetry: endpoint({
    method: 'GET',
    path: '/v1/satellites/:id/telemetry',
    params: satellite,
    query: instant,
    response: TelemetrySchema,
  }),
  refreshElements: endpoint({ method: 'POST', path: '/v1/elements/refresh', response: RefreshReportSchema }),
  listStations: endpoint({ method: 'GET', path: '/v1/stations', response: StationListSchema }),
  getStation: endpoint({
    method: 'GET',
    path: '/v1/stations/:id',
    params: station,
    response: StationSchema,
  }),
};
export type SatdtApi = typeof satdtApi;
