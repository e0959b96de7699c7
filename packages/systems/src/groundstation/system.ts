import type { RestHandler } from '@code-cluster/shared';
import { groundstationApi } from '@code-cluster/shared/groundstation';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Booking } from './booking.js';
import { Maintenance } from './maintenance.js';
import { groundstationRoutes, operatorGuards } from './routes.js';
import { StationViews } from './stations.js';
import type { GroundstationStore } from './store.js';
import { openGroundstationStore, SQLITE_SCHEMA_VERSION } from './store-sqlite.js';
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

export interface PostgresGroundstationOptions {
  /** The contact book on PostgreSQL at this URL (`GROUNDSTATION_DATABASE_URL`) instead of SQLite. */
  databaseUrl?: string | undefined;
  /** Its schema, `groundstation` by default (tests give each world its own). */
  databaseSchema?: string;
  /** Longest a statement may take before a call is answered "no está disponible", ms (default 10 s). */
  queryTimeoutMs?: number;
}

export interface GroundstationSystem {
  handler: RestHandler;
  store: GroundstationStore;
  close(): Promise<void>;
}

/** The ground station system on its SQLite file, served as the API of packages/shared/src/groundstation/api.ts. */
export function createGroundstationSystem(options: GroundstationSystemOptions = {}): GroundstationSystem {
  return serve(openGroundstationStore(options.file ?? dataFile('groundstation.db')), options);
}

/**
 * The ground station system on PostgreSQL when `databaseUrl` is set (the driver is loaded only then), else
 * on SQLite. Rejects when PostgreSQL cannot be used at that URL (unreachable, refused, a newer schema).
 */
export async function openGroundstationSystem(
  options: GroundstationSystemOptions & PostgresGroundstationOptions = {},
): Promise<GroundstationSystem> {
  if (!options.databaseUrl) return createGroundstationSystem(options);
  const { openPostgresStore } = await import('./store-postgres.js');
  const store = await openPostgresStore({
    url: options.databaseUrl,
    ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
    ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return serve(store, options);
}

/**
 * `code-systems migrate groundstation`: the schema on PostgreSQL at `databaseUrl`, or the SQLite file in the
 * data dir without one, created or brought up to this build's version. Idempotent; what it did, in one line.
 */
export async function migrateGroundstation(databaseUrl: string | undefined): Promise<string> {
  if (databaseUrl) return (await import('./store-postgres.js')).migratePostgres(databaseUrl);
  const store = openGroundstationStore(dataFile('groundstation.db'));
  await store.close();
  return `groundstation: SQLite file ${store.where} at version ${SQLITE_SCHEMA_VERSION}`;
}

function serve(store: GroundstationStore, options: GroundstationSystemOptions): GroundstationSystem {
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
    close: async () => {
      void satellites.close();
      await store.close();
    },
  };
}
