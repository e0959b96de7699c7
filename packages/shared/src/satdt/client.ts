import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import {
  HealthSchema,
  PassesSchema,
  PositionSchema,
  RefreshReportSchema,
  SatelliteListSchema,
  SatelliteSchema,
  StationListSchema,
  TelemetrySchema,
} from './schemas.js';

export interface PassQuery {
  station: string;
  /** ISO-8601 UTC; the system's now when omitted. */
  from?: string;
  hours?: number;
}

/** Typed client of the satdt REST API. */
export class SatdtClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'gemelo digital satelital (satdt)', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.get('/healthz', HealthSchema, undefined, signal);
  }

  listSatellites(search?: string, signal?: AbortSignal) {
    return this.rest.get('/v1/satellites', SatelliteListSchema, { search }, signal);
  }

  getSatellite(noradId: number, signal?: AbortSignal) {
    return this.rest.get(`/v1/satellites/${noradId}`, SatelliteSchema, undefined, signal);
  }

  passes(noradId: number, query: PassQuery, signal?: AbortSignal) {
    return this.rest.get(`/v1/satellites/${noradId}/passes`, PassesSchema, { ...query }, signal);
  }

  position(noradId: number, at?: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/satellites/${noradId}/position`, PositionSchema, { at }, signal);
  }

  telemetry(noradId: number, at?: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/satellites/${noradId}/telemetry`, TelemetrySchema, { at }, signal);
  }

  /** Re-reads every configured element source now (the twin's operator action). */
  refreshElements(signal?: AbortSignal) {
    return this.rest.call({ method: 'POST', path: '/v1/elements/refresh' }, RefreshReportSchema, signal);
  }

  listStations(signal?: AbortSignal) {
    return this.rest.get('/v1/stations', StationListSchema, undefined, signal);
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
