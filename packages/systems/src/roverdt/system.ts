import type { RestHandler } from '@code-cluster/shared';
import { roverdtApi } from '@code-cluster/shared/roverdt';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Driving } from './driving.js';
import { Fleet } from './fleet.js';
import { Planning } from './planning.js';
import { roverdtRoutes } from './routes.js';
import { REFERENCE_ROVERS, type RoverSeed, seedStore } from './seeding.js';
import { openRoverdtStore, SQLITE_SCHEMA_VERSION } from './sqlite-store.js';
import type { RoverdtStore } from './store.js';
import { DEFAULT_SEED, type Terrain, terrainFor } from './terrain.js';

export { REFERENCE_ROVERS, type RoverSeed } from './seeding.js';

export interface RoverdtSystemOptions {
  /** SQLite file of the rovers' state; `roverdt.db` under the cluster's data dir by default. */
  file?: string;
  /** The rovers' state on PostgreSQL at this URL instead of SQLite (`ROVERDT_DATABASE_URL`). */
  databaseUrl?: string | undefined;
  /** Its schema (default `roverdt`; tests take one each). */
  databaseSchema?: string;
  /** The terrain's seed (ignored when `terrain` is given). */
  seed?: number;
  /** A terrain drawn by hand (tests). */
  terrain?: Terrain;
  rovers?: readonly RoverSeed[];
  /** The wall clock, Unix ms, for when routes were planned (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface RoverdtSystem {
  handler: RestHandler;
  terrain: Terrain;
  store: RoverdtStore;
  close(): Promise<void>;
}

/**
 * The rover twin: its terrain and rovers' store (PostgreSQL when `databaseUrl` is set, the pg client loaded
 * only then; else SQLite), served as the API of packages/shared/src/roverdt/api.ts. Rejects when the store
 * cannot be opened or was written for another map.
 */
export async function openRoverdtSystem(options: RoverdtSystemOptions = {}): Promise<RoverdtSystem> {
  const terrain = options.terrain ?? terrainFor(options.seed ?? DEFAULT_SEED);
  const store = options.databaseUrl
    ? await (await import('./postgres-store.js')).openRoverdtPgStore(options.databaseUrl, {
        ...(options.databaseSchema ? { schema: options.databaseSchema } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      })
    : openRoverdtStore(options.file ?? dataFile('roverdt.db'));
  try {
    await seedStore(store, terrain, options.rovers ?? REFERENCE_ROVERS);
  } catch (error) {
    await store.close();
    throw error;
  }
  const fleet = new Fleet(store, terrain);
  const handlers = roverdtRoutes(fleet, new Planning(fleet, options.now ?? Date.now), new Driving(fleet));
  return {
    handler: routes(roverdtApi, handlers, options.onError),
    terrain,
    store,
    close: () => store.close(),
  };
}

/**
 * `code-systems migrate roverdt`: the schema on PostgreSQL at `databaseUrl` (an administrator's), or the
 * SQLite file in the data dir without one, created or brought up to date; idempotent. One line of what it did.
 */
export async function migrateRoverdt(databaseUrl: string | undefined): Promise<string> {
  if (databaseUrl) {
    const { openRoverdtPgStore, PG_SCHEMA_VERSION } = await import('./postgres-store.js');
    const store = await openRoverdtPgStore(databaseUrl);
    await store.close();
    return `roverdt: schema roverdt on ${store.where} at version ${PG_SCHEMA_VERSION}`;
  }
  const store = openRoverdtStore(dataFile('roverdt.db'));
  await store.close();
  return `roverdt: SQLite file ${store.where} at version ${SQLITE_SCHEMA_VERSION}`;
}
