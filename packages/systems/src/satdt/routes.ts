import type { SatdtApi, Station as StationDto } from '@code-cluster/shared/satdt';
import type { Handlers } from '../http/router.js';
import { STATIONS, type StationReference, stationOr404 } from '../reference/stations.js';
import type { ElementStore } from './domain/index.js';
import type { RefreshReport } from './elements-refresh.js';
import { detail, satelliteOr404, searchSatellites } from './satellites.js';
import { passesOver, positionOf, telemetryOf } from './tracking.js';

export const SATDT_VERSION = '0.1.0';

/** Each endpoint of the twin's API (packages/shared/src/satdt/api.ts) to its use case. */
export function satdtRoutes(
  store: ElementStore,
  now: () => number,
  refreshElements: () => Promise<RefreshReport>,
): Handlers<SatdtApi> {
  const instant = (value: string | undefined): number => (value === undefined ? now() : Date.parse(value));
  // Every request reads the catalog once and works on that map to the end.
  const satellite = (id: string) => satelliteOr404(store.catalog, id);
  return {
    health: () => ({ status: 'ok', system: 'satdt', version: SATDT_VERSION }),
    listSatellites: ({ query }) => ({ satellites: searchSatellites(store.catalog, query.search, now()) }),
    getSatellite: ({ params }) => detail(satellite(params.id), now()),
    passes: ({ params, query }) =>
      passesOver(satellite(params.id), stationOr404(query.station), instant(query.from), query.hours),
    position: ({ params, query }) => positionOf(satellite(params.id), instant(query.at)),
    telemetry: ({ params, query }) => telemetryOf(satellite(params.id), instant(query.at)),
    refreshElements: () => refreshElements(),
    listStations: () => ({ stations: STATIONS.map(stationDto) }),
    getStation: ({ params }) => stationDto(stationOr404(params.id)),
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
