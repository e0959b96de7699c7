import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import { roverdtApi } from './api.js';
import type { Cell, Instrument } from './schemas.js';

/** Typed client of the rover digital twin's REST API. */
export class RoverdtClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'gemelo digital del rover', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.send(roverdtApi.health, {}, signal);
  }

  map(signal?: AbortSignal) {
    return this.rest.send(roverdtApi.map, {}, signal);
  }

  terrain(signal?: AbortSignal) {
    return this.rest.send(roverdtApi.terrain, {}, signal);
  }

  knownHazards(rover: string, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.knownHazards, { params: { id: rover } }, signal);
  }

  listRovers(signal?: AbortSignal) {
    return this.rest.send(roverdtApi.listRovers, {}, signal);
  }

  getRover(rover: string, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.getRover, { params: { id: rover } }, signal);
  }

  /** Plans and stores a route from where the rover is now; refused (with the reason) when it cannot go. */
  planRoute(rover: string, destination: Cell, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.planRoute, { params: { id: rover }, body: { destination } }, signal);
  }

  getRoute(rover: string, route: string, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.getRoute, { params: { id: rover, route } }, signal);
  }

  /** The rover's routes, newest first. */
  listRoutes(rover: string, limit = 10, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.listRoutes, { params: { id: rover }, query: { limit } }, signal);
  }

  /**
   * Drives up to `legs` legs of a route, each committed on its own: whatever happens to this request, the
   * rover is at the end of the last leg the system finished. Never retried (it moves the rover).
   */
  step(rover: string, route: string, legs = 1, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.step, { params: { id: rover, route }, body: { legs } }, signal);
  }

  /** Reads an instrument where the rover stands, at its simulated time (changes nothing). */
  measure(rover: string, instrument: Instrument, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.measure, { params: { id: rover, instrument } }, signal);
  }

  /** Parks the rover for `hours` of its clock: the panels charge it by day. */
  wait(rover: string, hours: number, signal?: AbortSignal) {
    return this.rest.send(roverdtApi.wait, { params: { id: rover }, body: { hours } }, signal);
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
