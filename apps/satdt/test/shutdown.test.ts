// DESIGN.md §3 rule 5 under load (issue 9): with 10 000 requests queued behind the ones in flight, the
// built bin still exits within 2 s of stdin closing or SIGTERM; queued work is dropped, not run first.
import { type StdioPeer, spawnServer } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { describe, expect, it } from 'vitest';

const track = trackPeers();
const QUEUED = 10_000;

async function loaded(): Promise<StdioPeer> {
  const peer = track(spawnServer('satdt'));
  await peer.initialize();
  for (let i = 0; i < QUEUED; i++) {
    peer.send({
      jsonrpc: '2.0',
      id: `q-${i}`,
      method: 'tools/call',
      params: { name: 'proximos_pases', arguments: { norad_id: 25544, estacion: 'orbiteye-mx', horas: 72 } },
    });
  }
  // Work is under way: the first answers are coming.
  await peer.waitFor((m) => m.id === 'q-0', 60_000);
  return peer;
}

describe('satdt-mcp: shutdown with 10 000 queued requests', () => {
  it('exits with code 0 within 2 s of stdin closing', async () => {
    const peer = await loaded();
    const exit = await peer.close();
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(2_000);
    expect(peer.received.filter((m) => String(m.id).startsWith('q-')).length).toBeLessThan(QUEUED);
  }, 120_000);

  it('exits with code 0 within 2 s of SIGTERM', async () => {
    const peer = await loaded();
    const exit = await peer.kill('SIGTERM');
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeLessThan(2_000);
    expect(peer.received.filter((m) => String(m.id).startsWith('q-')).length).toBeLessThan(QUEUED);
  }, 120_000);
});
