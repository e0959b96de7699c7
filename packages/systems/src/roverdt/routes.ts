import type { MapSummary, RoverdtApi, TerrainGrid } from '@code-cluster/shared/roverdt';
import { MAX_SLOPE_DEG } from '@code-cluster/shared/roverdt';
import { type Handlers, Reply } from '../http/router.js';
import { waitFor } from './charging.js';
import type { Driving } from './driving.js';
import type { Fleet } from './fleet.js';
import { gridOf, summarizeMap } from './overview.js';
import type { Planning } from './planning.js';

export const ROVERDT_VERSION = '0.1.0';

/** Each endpoint of the rover twin's API (packages/shared/src/roverdt/api.ts) to its use case. */
export function roverdtRoutes(fleet: Fleet, planning: Planning, driving: Driving): Handlers<RoverdtApi> {
  // The map never changes: summarized once, when first asked for.
  let mapSummary: MapSummary | undefined;
  let terrainGrid: TerrainGrid | undefined;
  return {
    health: () => ({ status: 'ok', system: 'roverdt', version: ROVERDT_VERSION }),
    map: () => {
      mapSummary ??= summarizeMap(fleet.terrain, MAX_SLOPE_DEG);
      return mapSummary;
    },
    terrain: () => {
      terrainGrid ??= gridOf(fleet.terrain);
      return terrainGrid;
    },
    knownHazards: async ({ params }) => ({ cells: await fleet.hazards(params.id) }),
    listRovers: async () => ({
      rovers: await Promise.all((await fleet.store.listRovers()).map((r) => fleet.roverDto(r))),
    }),
    getRover: async ({ params }) => fleet.roverDto(await fleet.rover(params.id)),
    listRoutes: async ({ params, query }) => {
      const r = await fleet.rover(params.id);
      const rows = await fleet.store.listRoutes(r.id, query.limit);
      return { routes: await Promise.all(rows.map((row) => fleet.routeDto(row))) };
    },
    planRoute: async ({ params, body }) => new Reply(201, await planning.plan(params.id, body.destination)),
    getRoute: async ({ params }) => {
      await fleet.rover(params.id);
      return await fleet.routeDto(await fleet.route(params.id, params.route));
    },
    step: ({ params, body, signal }) => driving.step(params.id, params.route, body.legs, signal),
    wait: ({ params, body }) => waitFor(fleet, params.id, body.hours),
    measure: ({ params }) => fleet.measurement(params.id, params.instrument),
  };
}
