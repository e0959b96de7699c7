import { z } from 'zod';
import { endpoint } from '../rest/endpoint.js';
import {
  KnownHazardsSchema,
  MapSummarySchema,
  MeasurementSchema,
  PlanRouteRequestSchema,
  RouteListSchema,
  RouteSchema,
  RoverdtHealthSchema,
  RoverListSchema,
  RoverSchema,
  StepRequestSchema,
  StepResultSchema,
  TerrainGridSchema,
  WaitRequestSchema,
  WaitResultSchema,
} from './schemas.js';

// Ids in paths are looked up, not pattern-checked: a malformed one is one that does not exist (404,
// naming the rovers, routes or instruments there are), the same as a well-formed unknown one.
const rover = z.object({ id: z.string() });
const route = z.object({ id: z.string(), route: z.string() });

/** The rover twin's REST API: what RoverdtClient sends and the roverdt system routes. */
export const roverdtApi = {
  health: endpoint({ method: 'GET', path: '/healthz', response: RoverdtHealthSchema }),
  map: endpoint({ method: 'GET', path: '/v1/map', response: MapSummarySchema }),
  terrain: endpoint({ method: 'GET', path: '/v1/map/terrain', response: TerrainGridSchema }),
  knownHazards: endpoint({
    method: 'GET',
    path: '/v1/rovers/:id/hazards',
    params: rover,
    response: KnownHazardsSchema,
  }),
  listRovers: endpoint({ method: 'GET', path: '/v1/rovers', response: RoverListSchema }),
  getRover: endpoint({ method: 'GET', path: '/v1/rovers/:id', params: rover, response: RoverSchema }),
  listRoutes: endpoint({
    method: 'GET',
    path: '/v1/rovers/:id/routes',
    params: rover,
    query: z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) }),
    response: RouteListSchema,
  }),
  planRoute: endpoint({
    method: 'POST',
    path: '/v1/rovers/:id/routes',
    params: rover,
    body: PlanRouteRequestSchema,
    response: RouteSchema,
  }),
  getRoute: endpoint({
    method: 'GET',
    path: '/v1/rovers/:id/routes/:route',
    params: route,
    response: RouteSchema,
  }),
  step: endpoint({
    method: 'POST',
    path: '/v1/rovers/:id/routes/:route/steps',
    params: route,
    // No body drives one leg.
    body: StepRequestSchema.prefault({}),
    response: StepResultSchema,
  }),
  wait: endpoint({
    method: 'POST',
    path: '/v1/rovers/:id/wait',
    params: rover,
    body: WaitRequestSchema,
    response: WaitResultSchema,
  }),
  measure: endpoint({
    method: 'GET',
    path: '/v1/rovers/:id/measurements/:instrument',
    params: z.object({ id: z.string(), instrument: z.string() }),
    response: MeasurementSchema,
  }),
};
export type RoverdtApi = typeof roverdtApi;
