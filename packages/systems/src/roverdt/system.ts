import type { RestHandler } from '@code-cluster/shared';
import { roverdtApi } from '@code-cluster/shared/roverdt';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Driving } from './driving.js';
import { Fleet } from './fleet.js';
import { Planning } from './planning.js';
import { roverdtRoutes } from './routes.js';
import { REFERENCE_ROVERS, type RoverSeed, seedStore } from './seeding.js';
import { openRoverdtStore, type RoverdtStore } from './store.js';
import { DEFAULT_SEED, type Terrain, terrainFor } from './terrain.js';

export { REFERENCE_ROVERS, type RoverSeed } from './seeding.js';

export interface RoverdtSystemOptions {
  /** SQLite file of the rovers' state; `roverdt.db` under the cluster's data dir by default. */
  file?: string;
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
  close(): void;
}

/** The rover twin: its terrain and rovers' store, served as the API of packages/shared/src/roverdt/api.ts. */
export function createRoverdtSystem(options: RoverdtSystemOptions = {}): RoverdtSystem {
  const terrain = options.terrain ?? terrainFor(options.seed ?? DEFAULT_SEED);
  const store = openRoverdtStore(options.file ?? dataFile('roverdt.db'));
  try {
    seedStore(store, terrain, options.rovers ?? REFERENCE_ROVERS);
  } catch (error) {
    store.close();
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
