// The raw stdio driver and where the built servers are: no vitest, no SDK client, so a product (the
// console) can import it at run time without the test kit's main entry.
export { SERVER_APPS, type ServerApp, serverBin, spawnServer, spawnServerWithData } from './servers.js';
export {
  type PeerEvent,
  type PeerExit,
  type SpawnOptions,
  StdioPeer,
  type WireMessage,
} from './stdio-peer.js';
