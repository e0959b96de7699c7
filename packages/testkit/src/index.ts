export { StdioPeer, type PeerEvent, type PeerExit, type SpawnOptions, type WireMessage } from './stdio-peer.js';
export { SERVER_APPS, type ServerApp, serverBin, spawnServer } from './servers.js';
