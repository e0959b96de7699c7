// Every class of incoming JSON-RPC message gets exactly the answer JSON-RPC 2.0 §4–5 and MCP prescribe,
// over real stdio to the BUILT fixture server and over real loopback HTTP: one classifier
// (`@code-cluster/shared/protocol`) judges both before the SDK sees anything.
import { StdioPeer, type WireMessage } from '@code-cluster/testkit';
import {
  ACCEPT_BOTH,
  HttpServerProcess,
  HttpSession,
  postMessage,
  readSse,
} from '@code-cluster/testkit/http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_BIN } from './global-setup.js';

/** What a line must get: a result for `id`, exactly one error with `code` and `id`, or nothing at all. */
type Expected = { result: string | number } | { code: number; id: string | number | null } | 'nothing';

const many = (extra: string) => `{${extra}${Array.from({ length: 40 }, (_, i) => `"k${i}":${i}`).join(',')}}`;
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const CLASSES: Array<[string, string, Expected]> = [
  // Valid requests reach the SDK, whatever extra they carry.
  [
    'a request with an own __proto__ member',
    '{"jsonrpc":"2.0","id":5,"method":"ping","params":{},"__proto__":[null]}',
    { result: 5 },
  ],
  [
    'a request with an extra member',
    '{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{},"":{"a":[{"a":1}]}}',
    { result: 8 },
  ],
  [
    'a request whose params carry many keys and an own __proto__',
    `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":${many('"__proto__":{"cursor":"x"},')}}`,
    { result: 9 },
  ],
  [
    'a request with prototype-named keys in its _meta',
    '{"jsonrpc":"2.0","id":"m-1","method":"ping","params":{"_meta":{"__proto__":{"progressToken":7},"constructor":{"prototype":{}}}}}',
    { result: 'm-1' },
  ],
  // No id and no valid method: one -32600 with id null.
  [
    "the JSON-RPC spec's own example",
    '{"jsonrpc":"2.0","method":1,"params":"bar"}',
    { code: -32600, id: null },
  ],
  ['a method true without an id', '{"jsonrpc":"2.0","method":true}', { code: -32600, id: null }],
  ['a method null without an id', '{"jsonrpc":"2.0","method":null}', { code: -32600, id: null }],
  // Ids that are not a string or a safe integer are no ids: never echoed rounded.
  ['id 1.5', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', { code: -32600, id: null }],
  ['id 1e-323', '{"jsonrpc":"2.0","id":1e-323,"method":"ping"}', { code: -32600, id: null }],
  [
    'id 9007199254740993',
    '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}',
    { code: -32600, id: null },
  ],
  [
    'id 123456789012345678901234567890',
    '{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"ping"}',
    { code: -32600, id: null },
  ],
  ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', { code: -32600, id: null }],
  // A valid id on an otherwise malformed request: -32600 with that id.
  [
    'a numeric method with a valid id',
    '{"jsonrpc":"2.0","id":"x-1","method":5}',
    { code: -32600, id: 'x-1' },
  ],
  [
    'params that are a string',
    '{"jsonrpc":"2.0","id":42,"method":"ping","params":"bar"}',
    { code: -32600, id: 42 },
  ],
  [
    'a request with a result',
    '{"jsonrpc":"2.0","id":43,"method":"ping","result":{}}',
    { code: -32600, id: 43 },
  ],
  [
    'the largest safe id',
    '{"jsonrpc":"2.0","id":9007199254740991,"method":"x","result":1}',
    { code: -32600, id: 9007199254740991 },
  ],
  // Params nested past the bound: -32602 naming it, before anything recursive runs.
  [
    'a 5000-deep array as a tool argument',
    `{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"eco","arguments":{"texto":${deep(5000)}}}}`,
    { code: -32602, id: 44 },
  ],
  // Valid notifications are never answered, whatever they carry.
  [
    'a notification with an extra member and prototype keys',
    '{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"__proto__":{"a":1}},"x":1}',
    'nothing',
  ],
  [
    'a notification nested 5000 levels deep',
    `{"jsonrpc":"2.0","method":"notifications/roots/list_changed","params":{"a":${deep(5000)}}}`,
    'nothing',
  ],
];

function check(line: string, expected: Expected, answers: WireMessage[], raw: string[]): void {
  if (expected === 'nothing') {
    expect(answers).toEqual([]);
    return;
  }
  expect(answers).toHaveLength(1);
  const [answer] = answers as [WireMessage];
  if ('result' in expected) {
    expect(answer.id).toBe(expected.result);
    expect(answer.error).toBeUndefined();
    return;
  }
  expect(answer.id).toBe(expected.id);
  expect(answer.error?.code).toBe(expected.code);
  if (expected.code === -32602)
    expect(answer.error?.message).toMatch(/64 levels at params\.arguments\.texto/);
  // The id goes back exactly as sent, or as null: never a number the client did not send.
  const sentId = /"id":([^,}]+)/.exec(line)?.[1];
  const echoed = raw.join('\n');
  if (expected.id === null) expect(echoed).toContain('"id":null');
  else expect(echoed).toContain(`"id":${sentId}`);
}

describe('message classes over stdio (built bin)', () => {
  let peer: StdioPeer;
  let sentinels = 0;
  beforeAll(async () => {
    peer = StdioPeer.spawn(process.execPath, [FIXTURE_BIN]);
    await peer.initialize('2025-06-18');
  });
  afterAll(async () => {
    await peer.close();
  });

  it.each(CLASSES)('%s', async (_label, line, expected) => {
    const before = peer.received.length;
    const linesBefore = peer.stdoutLines.length;
    peer.send(line);
    // A ping sent after the line is answered after whatever the line gets: the guard answers in order.
    const sentinelId = `sentinel-${++sentinels}`;
    peer.send({ jsonrpc: '2.0', id: sentinelId, method: 'ping' });
    await peer.waitFor((m) => m.id === sentinelId);
    const answers = peer.received.slice(before).filter((m) => m.id !== sentinelId);
    check(line, expected, answers, peer.stdoutLines.slice(linesBefore));
    expect(peer.invalidStdoutLines).toEqual([]);
  });

  it('lets no prototype-named key change what a tool does', async () => {
    const polluted = await peer.request('tools/call', {
      name: 'eco',
      arguments: JSON.parse('{"texto":"a","__proto__":{"veces":3}}'),
    });
    expect(polluted.result).toMatchObject({ structuredContent: { texto: 'a' } });
    const named = await peer.request('tools/call', {
      name: 'eco',
      arguments: JSON.parse('{"texto":"a","constructor":{"prototype":{"veces":3}}}'),
    });
    expect(named.error?.code).toBe(-32602);
    expect(named.error?.message).toContain("'constructor'");
  });

  it('refuses a request id still in flight with -32600; the first stays cancellable', async () => {
    const progress: WireMessage[] = [];
    peer.onEvent((event) => {
      const params = event.message?.params as { progressToken?: unknown } | undefined;
      if (event.direction === 'in' && params?.progressToken === 'dup') progress.push(event.message!);
    });
    peer.send({
      jsonrpc: '2.0',
      id: 'd',
      method: 'tools/call',
      params: { name: 'dormir', arguments: { ms: 30_000 }, _meta: { progressToken: 'dup' } },
    });
    await peer.waitFor((m) => (m.params as { progressToken?: unknown })?.progressToken === 'dup');
    peer.send({ jsonrpc: '2.0', id: 'd', method: 'ping' });
    const duplicate = await peer.waitFor((m) => m.id === 'd' && m.error !== undefined);
    expect(duplicate.error?.code).toBe(-32600);
    expect(duplicate.error?.message).toContain('"d"');
    peer.notify('notifications/cancelled', { requestId: 'd' });
    await peer.request('ping');
    // Once cancelled the id is free again; the cancelled call never answers and stops reporting.
    peer.send({ jsonrpc: '2.0', id: 'd', method: 'ping' });
    const reused = await peer.waitFor((m) => m.id === 'd' && m.result !== undefined);
    expect(reused.result).toEqual({});
    const count = progress.length;
    await peer.request('ping');
    await peer.quietFor(300);
    expect(progress.length).toBeLessThanOrEqual(count + 1);
    expect(peer.received.filter((m) => m.id === 'd')).toHaveLength(2);
  });
});

describe('message classes over Streamable HTTP', () => {
  let server: HttpServerProcess;
  let session: HttpSession;
  beforeAll(async () => {
    server = await HttpServerProcess.start(FIXTURE_BIN);
    session = await HttpSession.open(server.url, { protocolVersion: '2025-06-18' });
  });
  afterAll(async () => {
    await server.stop('SIGKILL');
  });

  it.each(CLASSES)('%s', async (_label, line, expected) => {
    const reply = await postMessage(server.url, line, session.headers);
    if (expected === 'nothing') {
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      return;
    }
    check(line, expected, reply.messages, [reply.text]);
  });

  it('bounds a 1M-deep value in a POST body the same way, and lives on', async () => {
    const line = `{"jsonrpc":"2.0","id":45,"method":"tools/call","params":{"name":"eco","arguments":{"texto":${deep(1_000_000)}}}}`;
    const reply = await postMessage(server.url, line, session.headers);
    expect(reply.messages).toHaveLength(1);
    expect(reply.messages[0]).toMatchObject({ id: 45, error: { code: -32602 } });
    expect((await session.request('ping')).response?.result).toEqual({});
  });

  it('refuses a request id still in flight with -32600 and still answers the first', async () => {
    const first = request(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session.headers },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'h',
        method: 'tools/call',
        params: { name: 'dormir', arguments: { ms: 600 }, _meta: { progressToken: 'h' } },
      }),
    });
    const events = readSse((await first).body);
    const firstEvent = await events.next();
    expect(firstEvent.value?.message?.method).toBe('notifications/progress');
    const duplicate = await postMessage(
      server.url,
      { jsonrpc: '2.0', id: 'h', method: 'ping' },
      session.headers,
    );
    expect(duplicate.status).toBe(400);
    expect(duplicate.messages).toEqual([
      { jsonrpc: '2.0', id: 'h', error: { code: -32600, message: expect.stringContaining('"h"') } },
    ]);
    let answer: WireMessage | undefined;
    for await (const event of events) if (event.message?.id === 'h') answer = event.message;
    expect(answer?.result).toMatchObject({ content: [{ text: 'dormí 600 ms' }] });
  });
});
