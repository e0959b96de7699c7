import { StdioPeer, type WireMessage } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { FIXTURE_BIN } from './global-setup.js';

const track = trackPeers();
async function ready(args: string[] = [], version = '2025-06-18'): Promise<StdioPeer> {
  const peer = StdioPeer.spawn(process.execPath, [FIXTURE_BIN, ...args]);
  track(peer);
  await peer.initialize(version);
  return peer;
}

const text = (m: WireMessage) => (m.result as { content: Array<{ text: string }> }).content[0]?.text ?? '';

describe('the tool seam (rule 6)', () => {
  it('answers isError when a tool exceeds its timeout, even if it ignores the signal', async () => {
    const peer = await ready();
    const started = performance.now();
    const response = await peer.request('tools/call', { name: 'ignorar_senal', arguments: { ms: 10_000 } });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(text(response)).toContain('0.3 s');
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('applies the server-wide timeout from --tool-timeout-ms', async () => {
    const peer = await ready(['--tool-timeout-ms', '200']);
    const response = await peer.request('tools/call', { name: 'dormir', arguments: { ms: 5_000 } });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(text(response)).toMatch(/0\.2 s/);
  });

  it('reports progress when the client sent a progressToken, and only then', async () => {
    const peer = await ready();
    const response = await peer.request('tools/call', {
      name: 'dormir',
      arguments: { ms: 300 },
      _meta: { progressToken: 'tok-1' },
    });
    expect(text(response)).toBe('dormí 300 ms');
    const progress = peer.received.filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBe(3);
    const values = progress.map((m) => (m.params as { progress: number }).progress);
    expect(values).toEqual([1, 2, 3]);
    expect(progress.every((m) => (m.params as { progressToken: string }).progressToken === 'tok-1')).toBe(
      true,
    );

    await peer.request('tools/call', { name: 'dormir', arguments: { ms: 200 } });
    expect(peer.received.filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
  });

  it('aborts a tool on notifications/cancelled and sends no response for it', async () => {
    const peer = await ready();
    peer.send({
      jsonrpc: '2.0',
      id: 'largo',
      method: 'tools/call',
      params: { name: 'dormir', arguments: { ms: 3_000 }, _meta: { progressToken: 'p' } },
    });
    await peer.waitFor((m) => m.method === 'notifications/progress');
    peer.notify('notifications/cancelled', { requestId: 'largo', reason: 'el usuario cambió de idea' });
    const afterCancel = peer.received.length;
    await peer.quietFor(600);
    const later = peer.received.slice(afterCancel);
    expect(later.filter((m) => m.id === 'largo')).toEqual([]);
    // The handler stopped: no more progress after the cancellation settled.
    expect(later.filter((m) => m.method === 'notifications/progress').length).toBeLessThanOrEqual(1);
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('turns a bug into -32603 with no internals on the wire, and logs it on stderr', async () => {
    const peer = await ready();
    const response = await peer.request('tools/call', { name: 'fallar', arguments: { modo: 'bug' } });
    expect(response.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(response)).not.toContain('secret');
    expect(peer.stderr).toContain('secret internal detail');
  });

  it('treats structured output that breaks the outputSchema as a bug', async () => {
    const peer = await ready();
    const response = await peer.request('tools/call', { name: 'fallar', arguments: { modo: 'salida' } });
    expect(response.error?.code).toBe(-32603);
  });

  it('names the argument, the bound and the value of every violation', async () => {
    const peer = await ready();
    const response = await peer.request('tools/call', {
      name: 'eco',
      arguments: { texto: 'x'.repeat(60), veces: 0, sobra: true },
    });
    const message = response.error?.message ?? '';
    expect(message).toContain("'texto' debe tener como máximo 50 caracteres");
    expect(message).toContain("'veces' debe ser ≥ 1; recibido: 0");
    expect(message).toContain("argumento desconocido 'sobra'");
    expect(response.error?.data).toMatchObject({ issues: expect.any(Array) });
  });

  it('reports a missing required argument by name', async () => {
    const peer = await ready([], '2025-11-25');
    const response = await peer.request('tools/call', { name: 'eco', arguments: {} });
    expect((response.result as { isError: boolean }).isError).toBe(true);
    expect(text(response)).toContain("'texto' es obligatorio");
  });

  it('returns structuredContent that matches the declared outputSchema', async () => {
    const peer = await ready();
    const response = await peer.request('tools/call', {
      name: 'eco',
      arguments: { texto: 'hola', veces: 3 },
    });
    expect(response.result).toEqual({
      content: [{ type: 'text', text: 'hola hola hola' }],
      structuredContent: { texto: 'hola hola hola' },
    });
  });
});
