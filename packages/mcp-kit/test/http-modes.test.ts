// What each Streamable HTTP mode advertises, it does: batches only where the negotiated revision has them,
// and `--stateless` cancellation reaching the call it names. Against the BUILT fixture server.
import {
  ACCEPT_BOTH,
  HttpServerProcess,
  HttpSession,
  postMessage,
  readSse,
  type SseEvent,
} from '@code-cluster/testkit/http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_BIN } from './global-setup.js';

const servers: HttpServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
});
const start = async (args: string[] = []) => {
  const server = await HttpServerProcess.start(FIXTURE_BIN, args);
  servers.push(server);
  return server;
};
const batch = [
  { jsonrpc: '2.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'eco', arguments: { texto: 'b' } } },
];

describe('JSON-RPC batches follow the negotiated revision', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start();
  });

  it.each(['2025-06-18', '2025-11-25'])('refuses a batch on a %s session with -32600', async (version) => {
    const session = await HttpSession.open(server.url, { protocolVersion: version });
    const reply = await postMessage(server.url, batch, session.headers);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect((reply.json as { error: { message: string } }).error.message).toContain('2025-06-18');
    expect(reply.text).not.toContain('"result"');
  });

  it('keeps batches on a 2025-03-26 session: every request answered', async () => {
    const session = await HttpSession.open(server.url, { protocolVersion: '2025-03-26' });
    const reply = await postMessage(server.url, batch, session.headers);
    expect(reply.status).toBe(200);
    expect(reply.messages.map((m) => m.id).sort()).toEqual([1, 2]);
  });

  it('refuses a batch that reuses one id, which would pair answers wrongly', async () => {
    const session = await HttpSession.open(server.url, { protocolVersion: '2025-03-26' });
    const reply = await postMessage(server.url, [batch[0], { ...batch[1], id: 1 }], session.headers);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ id: 1, error: { code: -32600 } });
  });
});

describe('--stateless', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start(['--stateless']);
  });

  it('refuses batches under a 2025-06-18 header, keeps them under 2025-03-26', async () => {
    const refused = await postMessage(server.url, batch, { 'mcp-protocol-version': '2025-06-18' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ error: { code: -32600 } });
    const kept = await postMessage(server.url, batch, { 'mcp-protocol-version': '2025-03-26' });
    expect(kept.messages.map((m) => m.id).sort()).toEqual([1, 2]);
    const reused = await postMessage(server.url, [batch[0], { ...batch[1], id: 1 }], {
      'mcp-protocol-version': '2025-03-26',
    });
    expect(reused.status).toBe(400);
    expect(reused.json).toMatchObject({ id: 1, error: { code: -32600 } });
  });

  it('routes notifications/cancelled to the call in flight: it stops early and its stream ends', async () => {
    const headers = { 'mcp-protocol-version': '2025-11-25' };
    const call = await request(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'largo',
        method: 'tools/call',
        params: { name: 'dormir', arguments: { ms: 3_000 }, _meta: { progressToken: 'c' } },
      }),
    });
    const events: SseEvent[] = [];
    let cancelled = false;
    // The loop ends only when the server ends the stream: the cancelled call never answers.
    for await (const event of readSse(call.body)) {
      events.push(event);
      if (!cancelled && event.message?.method === 'notifications/progress') {
        cancelled = true;
        const reply = await postMessage(
          server.url,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'largo' } },
          headers,
        );
        expect(reply.status).toBe(202);
      }
    }
    const progress = events.filter((e) => e.message?.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.length).toBeLessThan(30);
    expect(events.some((e) => e.message?.id === 'largo')).toBe(false);
  });
});
