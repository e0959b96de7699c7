// The raw stdio driver (the console uses it at run time). Shared vitest suites: ./vitest; SDK client in
// the same process: ./in-memory.
export { peakRssUntilIdle, rssMiB } from './process-stats.js';
export { readmeSection } from './readme.js';
export { rejectionOf, resourceText, tempDataDir, textOf } from './results.js';
export { SERVER_APPS, type ServerApp, serverBin, spawnServer, spawnServerWithData } from './servers.js';
export {
  type PeerEvent,
  type PeerExit,
  type SpawnOptions,
  StdioPeer,
  type WireMessage,
} from './stdio-peer.js';
