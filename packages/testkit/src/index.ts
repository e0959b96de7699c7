export { describeProtocolRules, type ProtocolSuiteOptions, type ToolCallSample } from './protocol-suite.js';
export { SERVER_APPS, type ServerApp, serverBin, spawnServer } from './servers.js';
export {
  type PeerEvent,
  type PeerExit,
  type SpawnOptions,
  StdioPeer,
  type WireMessage,
} from './stdio-peer.js';
export { type Connectable, connectInMemory } from './in-memory.js';
