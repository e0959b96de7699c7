// Hosts start servers in ways of their own: Claude Desktop starts a sibling copy to probe the protocol
// era, and a desktop client and an IDE may run the same server at once. Two copies on one data dir must
// both come up, serve without blocking each other, and each exit within 2 s of its stdin closing
// (DESIGN.md §3 rule 5).
import { type StdioPeer, spawnServer, type WireMessage } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();
const spawnHub = (): StdioPeer =>
  track(spawnServer('hub', [], { env: { ...process.env, CODE_CLUSTER_DATA_DIR: data.dir } }));
const events = (m: WireMessage) =>
  (m.result as { structuredContent: { eventos: Array<{ datos: { copia: number } }> } }).structuredContent
    .eventos;

describe('two hub-mcp copies started together on one data dir', () => {
  it('both come up, each sees what the other writes, and both exit within 2 s of stdin closing', async () => {
    const copies = [spawnHub(), spawnHub()];
    await Promise.all(copies.map((peer) => peer.initialize()));
    // Interleaved writes from both: neither waits for the other to finish.
    const published = await Promise.all(
      copies.flatMap((peer, copia) =>
        [0, 1, 2].map((n) =>
          peer.request('tools/call', {
            name: 'publicar_evento',
            arguments: { topico: 'hermanos', tipo: 'prueba', datos: { copia, n } },
          }),
        ),
      ),
    );
    for (const response of published) expect((response.result as { isError?: boolean }).isError).toBeFalsy();
    for (const peer of copies) {
      const read = await peer.request('tools/call', {
        name: 'leer_eventos',
        arguments: { topico: 'hermanos', limite: 100 },
      });
      expect(
        events(read)
          .map((e) => e.datos.copia)
          .sort(),
      ).toEqual([0, 0, 0, 1, 1, 1]);
    }
    const exits = await Promise.all(copies.map((peer) => peer.close()));
    for (const exit of exits) {
      expect(exit.code).toBe(0);
      expect(exit.ms).toBeLessThan(2_000);
    }
  });
});
