export { decodeCursor, encodeCursor } from './cursor.js';
export type { HubLog } from './log.js';
export {
  DEFAULT_RETENTION,
  type EventRecord,
  HubStore,
  type RetentionPolicy,
  type TopicRecord,
} from './store.js';
export {
  createHubSystem,
  type HubSystem,
  type HubSystemOptions,
  type NatsHubOptions,
  openHubSystem,
} from './system.js';
export { DEFAULT_WATCH_INTERVAL_MS, LogWatcher } from './watcher.js';
