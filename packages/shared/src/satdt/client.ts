import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import { satdtApi } from './api.js';

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
    return this.rest.send(satdtApi.health, {}, signal);
  }

  listSatellites(search?: string, signal?: AbortSignal) {
    return this.rest.send(satdtApi.listSatellites, { query: { search } }, signal);
  }

  getSatellite(noradId: number, signal?: AbortSignal) {
    return this.rest.send(satdtApi.getSatellite, { params: { id: String(noradId) } }, signal);
  }

  passes(noradId: number, query: PassQuery, signal?: AbortSignal) {
    return this.rest.send(satdtApi.passes, { params: { id: String(noradId) }, query: { ...query } }, signal);
  }

  position(noradId: number, at?: string, signal?: AbortSignal) {
    return this.rest.send(satdtApi.position, { params: { id: String(noradId) }, query: { at } }, signal);
  }

  telemetry(noradId: number, at?: string, signal?: AbortSignal) {
    return this.rest.send(satdtApi.telemetry, { params: { id: String(noradId) }, query: { at } }, signal);
  }

  /** Re-reads every configured element source now (the twin's operator action). */
  refreshElements(signal?: AbortSignal) {
    return this.rest.send(satdtApi.refreshElements, {}, signal);
  }

  listStations(signal?: AbortSignal) {
    return this.rest.send(satdtApi.listStations, {}, signal);
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
