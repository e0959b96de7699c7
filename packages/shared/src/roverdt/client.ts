import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import {
  type Cell,
  type Instrument,
  KnownHazardsSchema,
  MapSummarySchema,
  MeasurementSchema,
  RouteListSchema,
  RouteSchema,
  RoverdtHealthSchema,
  RoverListSchema,
  RoverSchema,
  StepResultSchema,
  TerrainGridSchema,
  WaitResultSchema,
} from './schemas.js';

const roverPath = (rover: string) => `/v1/rovers/${encodeURIComponent(rover)}`;
const routePath = (rover: string, route: string) => `${roverPath(rover)}/routes/${encodeURIComponent(route)}`;

/** Typed client of the rover digital twin's REST API. */
export class RoverdtClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'gemelo digital del rover', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.get('/healthz', RoverdtHealthSchema, undefined, signal);
  }

  map(signal?: AbortSignal) {
    return this.rest.get('/v1/map', MapSummarySchema, undefined, signal);
  }

  terrain(signal?: AbortSignal) {
    return this.rest.get('/v1/map/terrain', TerrainGridSchema, undefined, signal);
  }

  knownHazards(rover: string, signal?: AbortSignal) {
    return this.rest.get(`${roverPath(rover)}/hazards`, KnownHazardsSchema, undefined, signal);
  }

  listRovers(signal?: AbortSignal) {
    return this.rest.get('/v1/rovers', RoverListSchema, undefined, signal);
  }

  getRover(rover: string, signal?: AbortSignal) {
    return this.rest.get(roverPath(rover), RoverSchema, undefined, signal);
  }

  /** Plans and stores a route from where the rover is now; refused (with the reason) when it cannot go. */
  planRoute(rover: string, destination: Cell, signal?: AbortSignal) {
    return this.rest.call(
      { method: 'POST', path: `${roverPath(rover)}/routes`, body: { destination } },
      RouteSchema,
      signal,
    );
  }

  getRoute(rover: string, route: string, signal?: AbortSignal) {
    return this.rest.get(routePath(rover, route), RouteSchema, undefined, signal);
  }

  /** The rover's routes, newest first. */
  listRoutes(rover: string, limit = 10, signal?: AbortSignal) {
    return this.rest.get(`${roverPath(rover)}/routes`, RouteListSchema, { limit }, signal);
  }

  /**
   * Drives up to `legs` legs of a route, each committed on its own: whatever happens to this request, the
   * rover is at the end of the last leg the system finished. Never retried (it moves the rover).
   */
  step(rover: string, route: string, legs = 1, signal?: AbortSignal) {
    return this.rest.call(
      { method: 'POST', path: `${routePath(rover, route)}/steps`, body: { legs } },
      StepResultSchema,
      signal,
    );
  }

  /** Reads an instrument where the rover stands, at its simulated time (changes nothing). */
  measure(rover: string, instrument: Instrument, signal?: AbortSignal) {
    return this.rest.get(
      `${roverPath(rover)}/measurements/${encodeURIComponent(instrument)}`,
      MeasurementSchema,
      undefined,
      signal,
    );
  }

  /** Parks the rover for `hours` of its clock: the panels charge it by day. */
  wait(rover: string, hours: number, signal?: AbortSignal) {
    return this.rest.call(
      { method: 'POST', path: `${roverPath(rover)}/wait`, body: { hours } },
      WaitResultSchema,
      signal,
    );
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
