// The repro of the abuse report: a 5000-deep array as norad_id over stdio and a 1M-deep one over HTTP
// used to end in -32603 or a stack overflow. The protocol layer bounds depth before anything recursive
// runs: -32602 naming the bound, and the server lives on.
import { serverBin, spawnServer } from '@code-cluster/testkit';
import { HttpServerProcess, HttpSession, postMessage } from '@code-cluster/testkit/http';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { describe, expect, it } from 'vitest';

const deepCall = (id: number, levels: number) =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"satelite_info","arguments":{"norad_id":${'['.repeat(levels)}${']'.repeat(levels)}}}}`;

describe('satdt-mcp: deeply nested arguments', () => {
  const track = trackPeers();

  it('answers a 5000-deep norad_id over stdio with -32602 naming the bound', async () => {
    const peer = track(spawnServer('satdt'));
    await peer.initialize('2025-11-25');
    peer.send(deepCall(7, 5000));
    const answer = await peer.waitFor((m) => m.id === 7);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toContain('64 levels at params.arguments.norad_id');
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('answers a 1M-deep norad_id over HTTP with -32602 naming the bound', async () => {
    const server = await HttpServerProcess.start(serverBin('satdt'));
    try {
      const session = await HttpSession.open(server.url);
      const reply = await postMessage(server.url, deepCall(8, 1_000_000), session.headers);
      expect(reply.messages).toHaveLength(1);
      expect(reply.messages[0]?.error?.code).toBe(-32602);
      expect(reply.messages[0]?.error?.message).toContain('64 levels');
      expect((await session.request('ping')).response?.result).toEqual({});
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
