import type { GroundstationApi } from '@code-cluster/shared/groundstation';
import { type Guard, type Handlers, Reply } from '../http/router.js';
import type { Booking } from './booking.js';
import type { Maintenance } from './maintenance.js';
import { operatorGuard } from './operator.js';
import type { StationViews } from './stations.js';

export const GROUNDSTATION_VERSION = '0.1.0';

/** Each endpoint of the ground station's API (packages/shared/src/groundstation/api.ts) to its use case. */
export function groundstationRoutes(
  stations: StationViews,
  booking: Booking,
  maintenance: Maintenance,
): Handlers<GroundstationApi> {
  return {
    health: () => ({ status: 'ok', system: 'groundstation', version: GROUNDSTATION_VERSION }),
    listStations: async () => ({ stations: await stations.list() }),
    getStation: ({ params }) => stations.state(params.id),
    schedule: ({ params, query }) => stations.schedule(params.id, query.from, query.hours),
    listMaintenance: ({ params }) => stations.maintenance(params.id),
    programMaintenance: async ({ params, body }) =>
      new Reply(201, await maintenance.program(params.id, body)),
    cancelMaintenance: ({ params }) => maintenance.cancel(params.id),
    bookContact: async ({ body }) => new Reply(201, await booking.book(body)),
    getContact: ({ params }) => booking.get(params.id),
    cancelContact: ({ params }) => booking.cancel(params.id),
  };
}

/** The operator actions, refused (403) before their request is parsed unless they carry the credential. */
export function operatorGuards(operatorToken: string | undefined): { [K in keyof GroundstationApi]?: Guard } {
  return {
    programMaintenance: operatorGuard(operatorToken, 'Programar mantenimiento'),
    cancelMaintenance: operatorGuard(operatorToken, 'Cancelar mantenimiento'),
  };
}
