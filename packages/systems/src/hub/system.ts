import type { RestHandler } from '@code-cluster/shared';
import { hubApi, type TopicWatcher } from '@code-cluster/shared/hub';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import { Publishing } from './publishing.js';
import { Reading } from './reading.js';
import { hubRoutes } from './routes.js';
import { HubStore, type RetentionPolicy } from './store.js';
import { LogWatcher } from './watcher.js';

export interface HubSystemOptions {
  /** SQLite file of the log; `hub.db` under the cluster's data dir by default. */
  file?: string;
  retention?: Partial<RetentionPolicy>;
  /** How often to look for events published by other processes while someone watches, ms. */
  watchIntervalMs?: number;
  /** The hub's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface HubSystem {
  handler: RestHandler;
  /** Notices new events in process, and those of other processes sharing the file. */
  watcher: TopicWatcher;
  store: HubStore;
  close(): void;
}

/** The event hub: its SQLite log, served as the API of packages/shared/src/hub/api.ts. */
export function createHubSystem(options: HubSystemOptions = {}): HubSystem {
  const store = new HubStore(options.file ?? dataFile('hub.db'), {
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const watcher = new LogWatcher(store, {
    ...(options.watchIntervalMs ? { intervalMs: options.watchIntervalMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  const handlers = hubRoutes(new Publishing(store, watcher), new Reading(store));
  return {
    handler: routes(hubApi, handlers, options.onError),
    watcher,
    store,
    close: () => {
      watcher.stop();
      store.close();
    },
  };
}
