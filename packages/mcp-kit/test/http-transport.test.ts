// Streamable HTTP of mcp-kit, against the BUILT fixture server over real loopback HTTP: an SDK client for
// the happy path, raw undici requests for every rule.
import { spawn } from 'node:child_process';
import {
  ACCEPT_BOTH,
  HttpServerProcess,
  HttpSession,
  httpRequest,
  postMessage,
  readSse,
  type SseEvent,
} from '@code-cluster/testkit/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_BIN } from './global-setup.js';

const TOKEN = 'test-token-0123456789abcdef';
const servers: HttpServerProcess[] = [];
const start = async (args: string[] = [], env: NodeJS.ProcessEnv = {}) => {
  const server = await HttpServerProcess.start(FIXTURE_BIN, args, { env: { ...process.env, ...env } });
  servers.push(server);
  return server;
};
const initializeMessage = (protocolVersion = '2025-11-25', id: number | string = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
const text = (response: { result?: unknown } | undefined) =>
  ((response?.result as { content?: Array<{ text?: string }> })?.content ?? []).map((c) => c.text).join('\n');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop('SIGKILL')));
});

describe('Streamable HTTP: a default server', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start();
  });

  it('listens on loopback and prints the bound URL on stderr', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(server.child.stdout.read()).toBeNull();
  });

  it('serves a real SDK client: tools, a call, progress, session termination', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()?.name).toBe('fixture-mcp');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('eco');
    const result = await client.callTool({ name: 'eco', arguments: { texto: 'hola', veces: 2 } });
    expect(result.structuredContent).toEqual({ texto: 'hola hola' });
    const progress: number[] = [];
    await client.callTool({ name: 'dormir', arguments: { ms: 300 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(progress).toEqual([1, 2, 3]);
    await transport.terminateSession();
    await client.close();
  });

  it('refuses a request before the handshake with -32000 in the session, and runs nothing', async () => {
    const session = await HttpSession.open(server.url, { initialized: false });
    const early = await session.request('tools/call', { name: 'eco', arguments: { texto: 'x' } });
    expect(early.response?.error).toEqual({ code: -32000, message: 'Server not initialized' });
    expect(early.response?.result).toBeUndefined();
    expect((await session.request('ping')).response?.result).toEqual({});
    expect((await session.notify('notifications/initialized')).status).toBe(202);
    expect((await session.request('tools/list')).response?.result).toBeDefined();
  });

  it('answers a request without a session id with 400 and -32015 (session required)', async () => {
    const reply = await postMessage(server.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' });
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toContain('application/json');
    expect((reply.json as { error: { code: number } }).error.code).toBe(-32015);
    expect((await httpRequest(server.url, { headers: { accept: 'text/event-stream' } })).status).toBe(400);
  });

  it('answers an unknown session id with 404', async () => {
    const reply = await postMessage(
      server.url,
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
    );
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
  });

  it('ends a session with DELETE; the id is then unknown (404)', async () => {
    const session = await HttpSession.open(server.url);
    expect((await session.delete()).status).toBe(200);
    const after = await session.request('tools/list');
    expect(after.reply.status).toBe(404);
    expect((await session.delete()).status).toBe(404);
  });

  it('rejects a second initialize on a session', async () => {
    const session = await HttpSession.open(server.url);
    const again = await postMessage(server.url, initializeMessage('2025-06-18', 9), session.headers);
    expect(again.status).toBe(400);
    expect((again.json as { error: { code: number } }).error.code).toBe(-32600);
    expect((await session.request('tools/list')).response?.result).toBeDefined();
  });

  it('gives every session its own negotiated version: -32602 up to 2025-06-18, isError from 2025-11-25', async () => {
    const args = { name: 'eco', arguments: { texto: 'hola', veces: 200 } };
    const [old, current] = await Promise.all([
      HttpSession.open(server.url, { protocolVersion: '2025-06-18' }),
      HttpSession.open(server.url, { protocolVersion: '2025-11-25' }),
    ]);
    const asError = await old.request('tools/call', args);
    expect(asError.response?.result).toBeUndefined();
    expect(asError.response?.error?.code).toBe(-32602);
    expect(asError.response?.error?.message).toContain('veces');
    const asResult = await current.request('tools/call', args);
    expect(asResult.response?.error).toBeUndefined();
    expect((asResult.response?.result as { isError?: boolean } | undefined)?.isError).toBe(true);
    expect(text(asResult.response)).toContain('veces');
  });

  it('answers the newest version to a client asking for an unknown one', async () => {
    const session = await HttpSession.open(server.url, { protocolVersion: '2099-01-01' });
    expect(session.protocolVersion).toBe('2025-11-25');
  });

  it('answers a body that is not JSON with -32700 and id null', async () => {
    const reply = await postMessage(server.url, '{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(reply.status).toBe(400);
    expect(reply.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });

  it('answers a message that is not a request with -32600 and its id', async () => {
    const session = await HttpSession.open(server.url);
    const reply = await postMessage(server.url, '{"jsonrpc":"2.0","id":77}', session.headers);
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ id: 77, error: { code: -32600 } });
  });

  it('answers notifications with 202 and no body, even malformed ones', async () => {
    const session = await HttpSession.open(server.url);
    for (const body of [
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"bad":true}}}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":[1,2]}',
    ]) {
      const reply = await postMessage(server.url, body, session.headers);
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
    }
  });

  it('refuses an unsupported MCP-Protocol-Version header with 400', async () => {
    const session = await HttpSession.open(server.url);
    const reply = await postMessage(
      server.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { ...session.headers, 'mcp-protocol-version': '2024-10-07' },
    );
    expect(reply.status).toBe(400);
    expect((reply.json as { error: { message: string } }).error.message).toContain('2024-10-07');
    expect(reply.json).toMatchObject({ error: { code: -32014 } });
    // Any supported version is accepted on any request of the session.
    const other = await postMessage(
      server.url,
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      { ...session.headers, 'mcp-protocol-version': '2025-03-26' },
    );
    expect(other.status).toBe(200);
  });

  it('answers a body over 4 MiB with 413 and a JSON-RPC error', async () => {
    const session = await HttpSession.open(server.url);
    const pad = 'y'.repeat(5 * 1024 * 1024);
    const reply = await postMessage(
      server.url,
      `{"jsonrpc":"2.0","id":901,"method":"ping","params":{"pad":"${pad}"}}`,
      session.headers,
    );
    expect(reply.status).toBe(413);
    expect(reply.json).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { message: expect.stringMatching(/4194304/) },
    });
    expect((await session.request('ping')).response?.result).toEqual({});
  });

  it('refuses a foreign Origin with 403 and accepts loopback origins', async () => {
    const evil = await postMessage(server.url, initializeMessage(), { origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(evil.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32011 } });
    const local = await postMessage(server.url, initializeMessage(), { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
  });

  it('refuses a foreign Host with 403 (DNS rebinding) and accepts localhost', async () => {
    const port = new URL(server.url).port;
    const evil = await postMessage(server.url, initializeMessage(), { host: `evil.example.com:${port}` });
    expect(evil.status).toBe(403);
    expect(evil.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32011 } });
    expect((evil.json as { error: { message: string } }).error.message).toContain('Host');
    const local = await postMessage(server.url, initializeMessage(), { host: `localhost:${port}` });
    expect(local.status).toBe(200);
  });

  it('answers other paths and methods with JSON, never HTML', async () => {
    const notFound = await httpRequest(`${server.origin}/nope`);
    expect(notFound.status).toBe(404);
    expect(notFound.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32012 } });
    const put = await httpRequest(server.url, { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('POST, GET, DELETE');
    expect(put.json).toMatchObject({ jsonrpc: '2.0' });
  });

  it('serves /healthz without touching the MCP endpoint and says nothing more than ok', async () => {
    const health = await httpRequest(`${server.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ status: 'ok' });
  });

  it('delivers server notifications (logging) on the GET stream of the session only', async () => {
    const [a, b] = await Promise.all([HttpSession.open(server.url), HttpSession.open(server.url)]);
    await a.request('logging/setLevel', { level: 'debug' });
    await b.request('logging/setLevel', { level: 'debug' });
    const streamA = await openStream(server.url, a.headers);
    const streamB = await openStream(server.url, b.headers);
    await a.request('tools/call', { name: 'eco', arguments: { texto: 'solo-a' } });
    const log = await streamA.next((e) => e.message?.method === 'notifications/message');
    expect(JSON.stringify(log.message?.params)).toContain('eco');
    await sleep(200);
    expect(streamB.events.filter((e) => e.message?.method === 'notifications/message')).toEqual([]);
    streamA.close();
    streamB.close();
  });
});

describe('Streamable HTTP: resumability', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start();
  });

  it('resumes a dropped POST stream with Last-Event-ID: the missed progress and result exactly once', async () => {
    const session = await HttpSession.open(server.url);
    const response = await request(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session.headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 42,
        method: 'tools/call',
        params: { name: 'dormir', arguments: { ms: 1000 }, _meta: { progressToken: 'p' } },
      }),
    });
    const first: SseEvent[] = [];
    for await (const event of readSse(response.body)) {
      first.push(event);
      if (event.message?.method === 'notifications/progress') break;
    }
    response.body.destroy();
    const lastId = first.at(-1)!.id!;
    expect(lastId).toBeTruthy();
    await sleep(1_300);
    const resumed = await httpRequest(server.url, {
      headers: { accept: 'text/event-stream', ...session.headers, 'last-event-id': lastId },
    });
    expect(resumed.status).toBe(200);
    const all = [...first, ...resumed.events].filter((e) => e.message);
    const progress = all
      .filter((e) => e.message?.method === 'notifications/progress')
      .map((e) => (e.message?.params as { progress?: number } | undefined)?.progress);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const results = all.filter((e) => e.message?.id === 42);
    expect(results).toHaveLength(1);
    expect(text(results[0]!.message)).toContain('dormí');
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('resumes a dropped GET stream: notifications sent meanwhile arrive once, none of another session', async () => {
    const [session, other] = await Promise.all([HttpSession.open(server.url), HttpSession.open(server.url)]);
    await session.request('logging/setLevel', { level: 'debug' });
    await other.request('logging/setLevel', { level: 'debug' });
    const stream = await openStream(server.url, session.headers);
    await session.request('tools/call', { name: 'eco', arguments: { texto: 'antes' } });
    const seen = await stream.next((e) => e.message?.method === 'notifications/message');
    stream.close();
    await sleep(200);
    await session.request('tools/call', { name: 'eco', arguments: { texto: 'durante1' } });
    await session.request('tools/call', { name: 'fallar', arguments: { modo: 'dominio' } });
    await other.request('tools/call', { name: 'eco', arguments: { texto: 'ajeno' } });
    const resumed = await openStream(server.url, { ...session.headers, 'last-event-id': seen.id! });
    const missed = await resumed.until(2, (e) => e.message?.method === 'notifications/message');
    await sleep(200);
    resumed.close();
    const logs = resumed.events.filter((e) => e.message?.method === 'notifications/message');
    expect(logs).toHaveLength(2);
    expect(missed.map((e) => e.id)).not.toContain(seen.id);
    expect(new Set(logs.map((e) => e.id)).size).toBe(2);
    // The two calls made while the stream was down, in order; nothing of the other session.
    const tools = logs.map(
      (e) => (e.message?.params as { data?: { tool?: string } } | undefined)?.data?.tool,
    );
    expect(tools).toEqual(['eco', 'fallar']);
  });
});

describe('Streamable HTTP: authentication', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start([], { MCP_HTTP_TOKEN: TOKEN });
  });

  it('answers a request without a token with 401 and WWW-Authenticate: Bearer', async () => {
    const reply = await postMessage(server.url, initializeMessage());
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(reply.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32010 } });
  });

  it('answers a wrong token with 401 invalid_token', async () => {
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`]) {
      const reply = await postMessage(server.url, initializeMessage(), { authorization });
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('serves a client with the right token', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(transport);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('leaves /healthz open (it reveals nothing)', async () => {
    const health = await httpRequest(`${server.origin}/healthz`);
    expect(health.status).toBe(200);
    expect(health.json).toEqual({ status: 'ok' });
  });
});

describe('Streamable HTTP: limits', () => {
  it('refuses sessions over --max-sessions with 503 and a JSON-RPC error', async () => {
    const server = await start(['--max-sessions', '2']);
    const a = await HttpSession.open(server.url);
    await HttpSession.open(server.url);
    const third = await postMessage(server.url, initializeMessage());
    expect(third.status).toBe(503);
    expect(third.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32016 } });
    await a.delete();
    await HttpSession.open(server.url);
  });

  it('expires an idle session (--session-idle-ms): its id is then unknown (404)', async () => {
    const server = await start(['--session-idle-ms', '300']);
    const session = await HttpSession.open(server.url);
    expect((await session.request('ping')).reply.status).toBe(200);
    await sleep(900);
    expect((await session.request('ping')).reply.status).toBe(404);
    expect(server.stderr).toContain('http session expired');
  });

  it('honours --max-line-bytes as the body limit', async () => {
    const server = await start(['--max-line-bytes', '2048']);
    const reply = await postMessage(server.url, { ...initializeMessage(), pad: 'x'.repeat(4000) });
    expect(reply.status).toBe(413);
    expect((reply.json as { error: { message: string } }).error.message).toContain('2048');
  });

  it('answers POSTs with plain JSON under --http-response json', async () => {
    const server = await start(['--http-response', 'json']);
    const session = await HttpSession.open(server.url);
    const { reply, response } = await session.request('tools/call', {
      name: 'eco',
      arguments: { texto: 'j' },
    });
    expect(reply.headers['content-type']).toContain('application/json');
    expect(text(response)).toBe('j');
  });
});

describe('Streamable HTTP: --stateless', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start(['--stateless']);
  });

  it('answers initialize without a session id', async () => {
    const reply = await postMessage(server.url, initializeMessage('2025-06-18'));
    expect(reply.status).toBe(200);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
    expect((reply.messages[0]?.result as { protocolVersion?: string } | undefined)?.protocolVersion).toBe(
      '2025-06-18',
    );
  });

  it('calls tools with no session, by the version of the MCP-Protocol-Version header', async () => {
    const call = (version: string, args: Record<string, unknown>) =>
      postMessage(
        server.url,
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'eco', arguments: args } },
        { 'mcp-protocol-version': version },
      );
    const ok = await call('2025-11-25', { texto: 'sin sesión' });
    expect(ok.status).toBe(200);
    expect(text(ok.messages[0])).toBe('sin sesión');
    expect((await call('2025-06-18', { texto: 'x', veces: 99 })).messages[0]?.error?.code).toBe(-32602);
    expect((await call('2025-11-25', { texto: 'x', veces: 99 })).messages[0]?.result).toMatchObject({
      isError: true,
    });
  });

  it('works with the SDK client', async () => {
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const result = await client.callTool({ name: 'eco', arguments: { texto: 'hola' } });
    expect(result.structuredContent).toEqual({ texto: 'hola' });
    await client.close();
  });

  it('has no GET stream and no session to delete (405)', async () => {
    const get = await httpRequest(server.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.json).toMatchObject({ jsonrpc: '2.0', error: { code: -32013 } });
    expect((await httpRequest(server.url, { method: 'DELETE' })).status).toBe(405);
  });
});

describe('Streamable HTTP: process lifecycle', () => {
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop('SIGKILL');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'exits with code 0 within 2 s on %s, with sessions and an open GET stream',
    async (signal) => {
      const server = await start();
      const session = await HttpSession.open(server.url);
      const stream = await openStream(server.url, session.headers);
      const exit = await server.stop(signal);
      stream.close();
      expect(exit.code).toBe(0);
      expect(exit.ms).toBeLessThan(2_000);
    },
  );

  it('refuses to bind a non-loopback address without a token: exit 2, one clear line', async () => {
    const child = spawn(
      process.execPath,
      [FIXTURE_BIN, '--transport', 'http', '--host', '0.0.0.0', '--port', '0'],
      {
        env: { ...process.env, MCP_HTTP_TOKEN: '' },
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('MCP_HTTP_TOKEN');
  });

  it('binds a non-loopback address when a token is set', async () => {
    const server = await start(['--host', '0.0.0.0'], { MCP_HTTP_TOKEN: TOKEN });
    expect(server.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    const port = new URL(server.url).port;
    const reply = await postMessage(`http://127.0.0.1:${port}/mcp`, initializeMessage(), {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(reply.status).toBe(200);
  });

  it('takes its settings from the environment (MCP_TRANSPORT, MCP_HTTP_PORT)', async () => {
    const child = spawn(process.execPath, [FIXTURE_BIN], {
      env: { ...process.env, MCP_TRANSPORT: 'http', MCP_HTTP_PORT: '0', MCP_HTTP_HOST: '127.0.0.1' },
    });
    let stderr = '';
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('listening on')) resolve();
      }),
    );
    child.kill('SIGKILL');
    expect(stderr).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });
});

/** An open GET stream of a session, collecting its events. */
async function openStream(url: string, headers: Record<string, string>) {
  const response = await request(url, {
    method: 'GET',
    headers: { accept: 'text/event-stream', ...headers },
  });
  expect(response.statusCode).toBe(200);
  const events: SseEvent[] = [];
  const waiters: Array<() => void> = [];
  const reading = (async () => {
    try {
      for await (const event of readSse(response.body)) {
        events.push(event);
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // Closed by the test.
    }
  })();
  const until = async (count: number, test: (e: SseEvent) => boolean, timeoutMs = 5_000) => {
    const deadline = Date.now() + timeoutMs;
    while (events.filter(test).length < count) {
      if (Date.now() > deadline) throw new Error(`stream: ${events.filter(test).length}/${count} events`);
      await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), sleep(100)]);
    }
    return events.filter(test).slice(0, count);
  };
  return {
    events,
    until,
    next: async (test: (e: SseEvent) => boolean) => (await until(1, test))[0]!,
    close: () => {
      response.body.destroy();
      void reading;
    },
  };
}
