import type { RestHandler } from '@code-cluster/shared';
import { groundstationApi } from '@code-cluster/shared/groundstation';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Booking } from './booking.js';
import { Maintenance } from './maintenance.js';
import { groundstationRoutes, operatorGuards } from './routes.js';
import { StationViews } from './stations.js';
import { type GroundstationStore, openGroundstationStore } from './store.js';
import { type SatdtConnection, SatelliteCheck } from './visibility.js';

export interface GroundstationSystemOptions {
  /** SQLite file of the contact book; `groundstation.db` under the cluster's data dir by default. */
  file?: string;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  /** The credential operator actions must present; without one, every operator action is refused. */
  operatorToken?: string;
  /**
   * The satdt system that judges whether a satellite can be contacted: the embedded one in this process by
   * default, a satdt service with `apiUrl` (the HTTP service reads GROUNDSTATION_SATDT_API_URL).
   */
  satdt?: SatdtConnection;
  onError?: (error: unknown) => void;
}

export interface GroundstationSystem {
  handler: RestHandler;
  store: GroundstationStore;
  close(): void;
}

/** The ground station system: its contact book, served as the API of packages/shared/src/groundstation/api.ts. */
export function createGroundstationSystem(options: GroundstationSystemOptions = {}): GroundstationSystem {
  const store = openGroundstationStore(options.file ?? dataFile('groundstation.db'));
  const now = options.now ?? Date.now;
  const satellites = new SatelliteCheck(options.satdt ?? {}, now);
  const handlers = groundstationRoutes(
    new StationViews(store, now),
    new Booking(store, satellites, now),
    new Maintenance(store, now),
  );
  return {
    handler: routes(groundstationApi, handlers, options.onError, operatorGuards(options.operatorToken)),
    store,
    close: () => {
      void satellites.close();
      store.close();
    },
  };
}
