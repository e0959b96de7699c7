// The stdio transport's own rules, against the BUILT fixture server over real stdio.
import { StdioPeer } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BIN } from './global-setup.js';

const track = trackPeers();
const spawnFixture = (args: string[] = []) =>
  track(StdioPeer.spawn(process.execPath, [FIXTURE_BIN, ...args]));
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
};

describe('stdio: a UTF-8 byte-order mark', () => {
  it('is accepted before the first line', async () => {
    const peer = spawnFixture();
    peer.write(`\uFEFF${JSON.stringify(INITIALIZE)}\n`);
    const init = await peer.waitFor((m) => m.id === 'init');
    expect(init.error).toBeUndefined();
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe('2025-06-18');
  });

  it('is not accepted on a later line', async () => {
    const peer = spawnFixture();
    await peer.initialize();
    peer.write(`\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: 'late', method: 'ping' })}\n`);
    const error = await peer.waitFor((m) => m.error?.code === -32700);
    expect(error.id).toBeNull();
    expect(peer.received.some((m) => m.id === 'late')).toBe(false);
  });
});

describe('stdio: requests in flight', () => {
  it('reads the next request only when one in flight is answered, and loses none', async () => {
    const peer = spawnFixture(['--max-inflight', '1']);
    await peer.initialize();
    peer.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'tools/call',
      params: { name: 'dormir', arguments: { ms: 300 } },
    });
    peer.send({ jsonrpc: '2.0', id: 'next', method: 'ping' });
    const next = await peer.waitFor((m) => m.id === 'next');
    expect(next.result).toEqual({});
    // In order: the ping waited for the one slot, it was not refused.
    const order = peer.received.filter((m) => m.id === 'slow' || m.id === 'next').map((m) => m.id);
    expect(order).toEqual(['slow', 'next']);
  });

  it('frees the slot of a cancelled request (the SDK never answers it)', async () => {
    const peer = spawnFixture(['--max-inflight', '1']);
    await peer.initialize();
    peer.send({
      jsonrpc: '2.0',
      id: 'long',
      method: 'tools/call',
      params: { name: 'dormir', arguments: { ms: 60_000 } },
    });
    peer.notify('notifications/cancelled', { requestId: 'long', reason: 'test' });
    expect((await peer.request('ping')).result).toEqual({});
    expect(peer.received.some((m) => m.id === 'long')).toBe(false);
  });
});
