// Streamable HTTP under abuse (issue 9), against the BUILT fixture server over real loopback HTTP: busy
// sessions, the session cap and its per-client share, GET stream heartbeats and lifetime, CORS, Host.
import { HttpServerProcess, HttpSession, httpRequest, postMessage } from '@code-cluster/testkit/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_BIN } from './global-setup.js';

const servers: HttpServerProcess[] = [];
const start = async (args: string[] = []) => {
  const server = await HttpServerProcess.start(FIXTURE_BIN, args);
  servers.push(server);
  return server;
};
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
});
const initialize = (id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
const errorOf = (json: unknown) => (json as { error: { code: number; message: string } }).error;

describe('Streamable HTTP: requests in flight per session', () => {
  it('answers one request over --max-inflight with 429 and -32005 instead of queueing it', async () => {
    const server = await start(['--max-inflight', '1']);
    const session = await HttpSession.open(server.url);
    // The first request holds the one slot: its SSE stream is open while the tool sleeps.
    const slow = await request(server.url, {
      method: 'POST',
      headers: {
        ...session.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'slow',
        method: 'tools/call',
        params: { name: 'dormir', arguments: { ms: 1500 } },
      }),
    });
    expect(slow.statusCode).toBe(200);
    const busy = await postMessage(
      server.url,
      { jsonrpc: '2.0', id: 'next', method: 'ping' },
      session.headers,
    );
    expect(busy.status).toBe(429);
    expect(busy.json).toMatchObject({ id: 'next', error: { code: -32005 } });
    expect(errorOf(busy.json).message).toContain('--max-inflight');
    // Once the first is answered, the session takes work again.
    expect(await slow.body.text()).toContain('dormí');
    expect((await session.request('ping')).response?.result).toEqual({});
  });
});

describe('Streamable HTTP, --stateless: requests in flight per client', () => {
  it('answers one request over --max-inflight with 429 and -32005', async () => {
    const server = await start(['--stateless', '--max-inflight', '1']);
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const slow = await request(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'slow',
        method: 'tools/call',
        params: { name: 'dormir', arguments: { ms: 1500 } },
      }),
    });
    expect(slow.statusCode).toBe(200);
    const busy = await postMessage(server.url, { jsonrpc: '2.0', id: 'next', method: 'ping' });
    expect(busy.status).toBe(429);
    expect(busy.json).toMatchObject({ id: 'next', error: { code: -32005 } });
    expect(await slow.body.text()).toContain('dormí');
    const after = await postMessage(server.url, { jsonrpc: '2.0', id: 'again', method: 'ping' });
    expect(after.messages.find((m) => m.id === 'again')?.result).toEqual({});
  });
});

describe('Streamable HTTP: the session cap does not lock everyone out', () => {
  it('lets a real client in after 100 bare initialize POSTs', async () => {
    const server = await start();
    for (let i = 0; i < 100; i++) {
      const bare = await postMessage(server.url, initialize(i));
      expect([200, 429, 503]).toContain(bare.status);
    }
    const client = new Client({ name: 'real', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('eco');
    await client.close();
  });

  it('at its share, a client displaces only its own least recently used idle session', async () => {
    const server = await start(['--max-sessions-per-client', '2']);
    const [older, newer] = [await HttpSession.open(server.url), await HttpSession.open(server.url)];
    expect((await newer.request('ping')).response?.result).toEqual({});
    const third = await HttpSession.open(server.url);
    expect((await third.request('ping')).response?.result).toEqual({});
    expect((await newer.request('ping')).response?.result).toEqual({});
    expect((await older.request('ping')).reply.status).toBe(404);
  });

  it('answers 429 at the share when every session of the client is busy (an open GET stream)', async () => {
    const server = await start(['--max-sessions-per-client', '2']);
    const sessions = [await HttpSession.open(server.url), await HttpSession.open(server.url)];
    const streams = await Promise.all(
      sessions.map((session) =>
        request(server.url, { method: 'GET', headers: { ...session.headers, accept: 'text/event-stream' } }),
      ),
    );
    try {
      const third = await postMessage(server.url, initialize());
      expect(third.status).toBe(429);
      expect(errorOf(third.json).message).toContain('--max-sessions-per-client');
      expect(errorOf(third.json).code).toBe(-32016);
      for (const session of sessions) expect((await session.request('ping')).response?.result).toEqual({});
    } finally {
      for (const stream of streams) stream.body.destroy();
    }
  });

  it('closes a session whose handshake is not completed within --session-handshake-ms', async () => {
    const server = await start(['--session-handshake-ms', '300']);
    const bare = await HttpSession.open(server.url, { initialized: false });
    let status = 200;
    for (let i = 0; i < 100 && status !== 404; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await bare.request('ping')).reply.status;
    }
    expect(status).toBe(404);
  });
});

describe('Streamable HTTP: GET streams', () => {
  it('carry heartbeats and end after --stream-max-ms', async () => {
    const server = await start(['--stream-heartbeat-ms', '100', '--stream-max-ms', '1000']);
    const session = await HttpSession.open(server.url);
    const stream = await request(server.url, {
      method: 'GET',
      headers: { ...session.headers, accept: 'text/event-stream' },
    });
    expect(stream.statusCode).toBe(200);
    // The whole body arrives only because the server ends the stream; it carried comment heartbeats.
    const body = await stream.body.text();
    expect(body).toMatch(/^: keep-alive$/m);
    expect((await session.request('ping')).response?.result).toEqual({});
  });
});

describe('Streamable HTTP: CORS and Host', () => {
  const ALLOWED = 'https://console.example.org';

  it('answers a preflight from an allowed origin with 204 and the Access-Control headers', async () => {
    const server = await start(['--allowed-origins', ALLOWED, '--http-token', 'test-token-0123456789abcdef']);
    const preflight = await httpRequest(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: ALLOWED,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(preflight.headers['access-control-allow-methods'])).toMatch(/POST/);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['mcp-session-id', 'mcp-protocol-version', 'authorization', 'last-event-id'])
      expect(allowed).toContain(header);
    expect(String(preflight.headers['access-control-expose-headers']).toLowerCase()).toContain(
      'mcp-session-id',
    );

    const init = await postMessage(server.url, initialize(), {
      origin: ALLOWED,
      authorization: 'Bearer test-token-0123456789abcdef',
    });
    expect(init.status).toBe(200);
    expect(init.headers['access-control-allow-origin']).toBe(ALLOWED);
  });

  it('refuses a preflight from another origin with 403 and a JSON-RPC error, no CORS headers', async () => {
    const server = await start(['--allowed-origins', ALLOWED]);
    const preflight = await httpRequest(server.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(errorOf(preflight.json).message).toContain('Origin');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers Host: localhost/evil with a JSON-RPC error body', async () => {
    const server = await start();
    const reply = await postMessage(server.url, initialize(), { host: 'localhost/evil' });
    expect(reply.status).toBe(403);
    expect(errorOf(reply.json).message).toContain('Host');
  });
});
