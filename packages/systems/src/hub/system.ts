import type { RestHandler } from '@code-cluster/shared';
import { hubApi, type TopicWatcher } from '@code-cluster/shared/hub';
import { routes } from '../http/router.js';
import { dataFile } from '../storage/index.js';
import type { HubLog, LogNotices } from './log.js';
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

export interface NatsHubOptions extends Omit<HubSystemOptions, 'file' | 'watchIntervalMs'> {
  /** The log on NATS JetStream at this URL instead of SQLite (`HUB_NATS_URL`). */
  natsUrl?: string | undefined;
  /** Its stream (`HUB_NATS_STREAM`, default CODE_CLUSTER_HUB). */
  natsStream?: string | undefined;
}

export interface HubSystem<Log extends HubLog = HubStore> {
  handler: RestHandler;
  /** Notices new events in process, and those of other processes sharing the log. */
  watcher: TopicWatcher;
  store: Log;
  close(): Promise<void> | void;
}

/** The event hub on its SQLite log, served as the API of packages/shared/src/hub/api.ts. */
export function createHubSystem(options: HubSystemOptions = {}): HubSystem {
  const store = new HubStore(options.file ?? dataFile('hub.db'), {
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const watcher = new LogWatcher(store, {
    ...(options.watchIntervalMs ? { intervalMs: options.watchIntervalMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return serve(store, watcher, options.onError);
}

/**
 * The hub on NATS JetStream when `natsUrl` is set (the client is loaded only then), else on SQLite. Rejects
 * when NATS cannot be reached or the stream cannot be set up.
 */
export async function openHubSystem(
  options: NatsHubOptions & HubSystemOptions = {},
): Promise<HubSystem<HubLog>> {
  if (!options.natsUrl) return createHubSystem(options);
  const { JetStreamLog, JetStreamWatcher } = await import('./jetstream.js');
  const log = await JetStreamLog.open({
    url: options.natsUrl,
    ...(options.natsStream ? { stream: options.natsStream } : {}),
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return serve(log, new JetStreamWatcher(log, options.onError), options.onError);
}

function serve<Log extends HubLog>(
  store: Log,
  watcher: LogNotices,
  onError?: (error: unknown) => void,
): HubSystem<Log> {
  const handlers = hubRoutes(new Publishing(store, watcher), new Reading(store));
  return {
    handler: routes(hubApi, handlers, onError),
    watcher,
    store,
    close: () => {
      watcher.stop();
      return store.close();
    },
  };
}
