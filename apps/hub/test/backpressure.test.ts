// A client that stops reading its answers (issue 9: hub-mcp ran out of heap): memory stays bounded,
// measured as the server process's RSS once it has gone quiet, and the server answers again as soon as the
// client reads. Built bin, real stdio and real loopback HTTP.
import { connect, type Socket } from 'node:net';
import {
  peakRssUntilIdle,
  type StdioPeer,
  serverBin,
  spawnServer,
  type WireMessage,
} from '@code-cluster/testkit';
import { HttpServerProcess, HttpSession } from '@code-cluster/testkit/http';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();

/** The default of --max-inflight: requests served at once per session. */
const MAX_INFLIGHT = 8;
const EVENTS = 100;
const EVENT_BYTES = 60_000;

const call = (id: number | string, name: string, args: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
const answered = (peer: StdioPeer, ids: Array<number | string>) =>
  Promise.all(ids.map((id) => peer.waitFor((m: WireMessage) => m.id === id, 240_000)));
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

async function hubWithBigEvents(dir: string): Promise<StdioPeer> {
  const peer = track(spawnServer('hub', [], { env: { ...process.env, CODE_CLUSTER_DATA_DIR: dir } }));
  await peer.initialize();
  for (const i of range(0, EVENTS))
    peer.send(
      call(`p-${i}`, 'publicar_evento', {
        topico: 'grande',
        tipo: 't',
        datos: { x: 'x'.repeat(EVENT_BYTES) },
      }),
    );
  const published = await answered(
    peer,
    range(0, EVENTS).map((i) => `p-${i}`),
  );
  expect(published.every((m) => m.result !== undefined && !(m.result as { isError?: boolean }).isError)).toBe(
    true,
  );
  return peer;
}

describe('hub-mcp over stdio: a client that stops reading stdout', () => {
  it('keeps RSS bounded under 150 unread 6 MB pages, and serves them once the client reads', async () => {
    const peer = await hubWithBigEvents(`${data.dir}/pages`);
    peer.child.stdout.pause();
    for (const i of range(0, 150))
      peer.send(call(`l-${i}`, 'leer_eventos', { topico: 'grande', limite: 100 }));
    // Unbounded, the answers pile up in the process: 2 GB and a heap-limit abort. Bounded: at most
    // --max-inflight answers (12 MB each on the wire) are built before stdin is no longer read.
    const peak = await peakRssUntilIdle(peer.child.pid!);
    expect(peak).toBeLessThan(700);
    expect(peer.received.filter((m) => String(m.id).startsWith('l-'))).toEqual([]);

    peer.child.stdout.resume();
    // Answers beyond the first --max-inflight prove that reading resumed once the client read again.
    const pages = await answered(
      peer,
      range(0, MAX_INFLIGHT + 2).map((i) => `l-${i}`),
    );
    for (const page of pages) {
      expect(page.error).toBeUndefined();
      const result = page.result as { structuredContent: { eventos: unknown[] } };
      expect(result.structuredContent.eventos).toHaveLength(EVENTS);
    }
  }, 300_000);

  it('keeps RSS bounded under 10 000 unread tools/list answers, then answers every one', async () => {
    const peer = track(
      spawnServer('hub', ['--max-buffered-bytes', '65536'], {
        env: { ...process.env, CODE_CLUSTER_DATA_DIR: `${data.dir}/list` },
      }),
    );
    await peer.initialize();
    peer.child.stdout.pause();
    const ids = range(0, 10_000).map((i) => `t-${i}`);
    for (const id of ids) peer.send({ jsonrpc: '2.0', id, method: 'tools/list' });
    // Unbounded: every answer is built and buffered (+ 160 MiB or more). Bounded: 64 KiB of unread stdout
    // at most, then stdin is no longer read.
    const peak = await peakRssUntilIdle(peer.child.pid!);
    expect(peak).toBeLessThan(150);

    peer.child.stdout.resume();
    const lists = await answered(peer, ids);
    expect(lists.every((m) => Array.isArray((m.result as { tools?: unknown[] } | undefined)?.tools))).toBe(
      true,
    );
    expect((await peer.request('ping')).result).toEqual({});
  }, 300_000);
});

/** One POST on its own connection whose answer is not read until `read` is called. */
function unreadPost(
  url: URL,
  headers: Record<string, string>,
  body: string,
): { socket: Socket; read(): Promise<string> } {
  const socket = connect(Number(url.port), url.hostname);
  socket.pause();
  const head = Object.entries({
    host: url.host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...headers,
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${url.pathname} HTTP/1.1\r\n${head}\r\n${body}`);
  return {
    socket,
    read: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.once('error', reject);
        socket.resume();
      }),
  };
}

describe('hub-mcp over HTTP: a client that stops reading its answers', () => {
  it('keeps RSS bounded under 150 unread 6 MB pages, refuses the excess with 429, and serves again', async () => {
    const server = await HttpServerProcess.start(serverBin('hub'), [], {
      env: { ...process.env, CODE_CLUSTER_DATA_DIR: `${data.dir}/http` },
    });
    try {
      const session = await HttpSession.open(server.url);
      for (let i = 0; i < EVENTS; i++) {
        const { response } = await session.request('tools/call', {
          name: 'publicar_evento',
          arguments: { topico: 'grande', tipo: 't', datos: { x: 'x'.repeat(EVENT_BYTES) } },
        });
        expect(response?.result).toBeDefined();
      }
      const url = new URL(server.url);
      const posts = range(0, 150).map((i) =>
        unreadPost(
          url,
          session.headers,
          JSON.stringify(call(`h-${i}`, 'leer_eventos', { topico: 'grande', limite: 100 })),
        ),
      );
      // Unbounded, every answer is built and buffered in the process (RSS ≈ 1.5 GB). Bounded: at most
      // --max-inflight answers per session; the rest are refused before they run.
      const peak = await peakRssUntilIdle(server.child.pid!);
      expect(peak).toBeLessThan(700);

      const answers = await Promise.all(posts.map((post) => post.read()));
      const served = answers.filter((text) => text.startsWith('HTTP/1.1 200'));
      const refused = answers.filter((text) => text.startsWith('HTTP/1.1 429'));
      expect(served.length).toBeGreaterThan(0);
      expect(served.length).toBeLessThanOrEqual(MAX_INFLIGHT);
      expect(served.length + refused.length).toBe(150);
      for (const text of served) expect(text).toContain('"hay_mas":false');
      for (const text of refused) expect(text).toContain('-32005');
      // Read again: the session takes new work.
      const { response } = await session.request('tools/call', {
        name: 'leer_eventos',
        arguments: { topico: 'grande', limite: 1 },
      });
      expect(response?.error).toBeUndefined();
      expect((response?.result as { isError?: boolean } | undefined)?.isError).toBeFalsy();
    } finally {
      await server.stop('SIGKILL');
    }
  }, 300_000);
});
