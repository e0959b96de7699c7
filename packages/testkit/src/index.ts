// Test helpers. The raw stdio driver alone (what the console uses at run time): ./peer; shared vitest
// suites: ./vitest; SDK client in the same process: ./in-memory.

export {
  type PeerEvent,
  type PeerExit,
  SERVER_APPS,
  type ServerApp,
  type SpawnOptions,
  StdioPeer,
  serverBin,
  spawnServer,
  spawnServerWithData,
  type WireMessage,
} from './peer.js';
export { freePort } from './ports.js';
export { peakRssUntilIdle, rssMiB } from './process-stats.js';
export { readmeSection } from './readme.js';
export {
  rejectionOf,
  resourceText,
  tempDataDir,
  textOf,
  wireData,
  wireIsError,
  wireText,
} from './results.js';
