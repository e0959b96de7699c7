import { afterEach, expect } from 'vitest';
import type { StdioPeer } from './stdio-peer.js';

/**
 * Keeps the server processes a test file spawns. After each test it asserts that every one of them
 * wrote JSON-RPC and nothing else on stdout (DESIGN.md §3 rule 4), and kills the survivors. Call it at
 * file or `describe` level; pass each spawned peer through the returned function.
 */
export function trackPeers(): <P extends StdioPeer>(peer: P) => P {
  const peers: StdioPeer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) {
      expect(peer.invalidStdoutLines).toEqual([]);
      if (peer.child.exitCode === null) await peer.kill('SIGKILL');
    }
  });
  return (peer) => {
    peers.push(peer);
    return peer;
  };
}
