import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../src/transport/http-event-store.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});
const GET = '_GET_stream';

async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const stream = await store.replayEventsAfter(lastEventId, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { stream, sent };
}

describe('SessionEventStore', () => {
  it('replays the GET stream (whose id has underscores) after an event, in order, once', async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent(GET, note(1));
    await store.storeEvent('post-a', note(99));
    await store.storeEvent(GET, note(2));
    await store.storeEvent(GET, note(3));
    expect(await store.getStreamIdForEventId(first)).toBe(GET);
    const { stream, sent } = await replay(store, first);
    expect(stream).toBe(GET);
    expect(sent.map(([, m]) => (m as unknown as { params: { n: number } }).params.n)).toEqual([2, 3]);
    expect(new Set(sent.map(([id]) => id)).size).toBe(2);
  });

  it('skips priming events (no message) on replay', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('post-a', {} as JSONRPCMessage);
    await store.storeEvent('post-a', note(1));
    const { sent } = await replay(store, priming);
    expect(sent).toHaveLength(1);
  });

  it('does not know event ids it never issued', async () => {
    const store = new SessionEventStore();
    await store.storeEvent(GET, note(1));
    for (const id of ['', 'x', '1', `7.${GET}`, '1.other-stream', '-1._GET_stream', `1_${GET}`]) {
      expect(await store.getStreamIdForEventId(id)).toBeUndefined();
    }
  });

  it('is bounded: the oldest events go first, by count and by bytes', async () => {
    const byCount = new SessionEventStore(3, 1_000_000);
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await byCount.storeEvent(GET, note(n)));
    expect(byCount.size).toBe(3);
    // The stream is still known after eviction: replay resumes with what is left.
    const { sent } = await replay(byCount, ids[0]!);
    expect(sent.map(([, m]) => (m as unknown as { params: { n: number } }).params.n)).toEqual([3, 4, 5]);
    const byBytes = new SessionEventStore(1_000, 200);
    for (let n = 1; n <= 10; n++) await byBytes.storeEvent(GET, note(n));
    expect(byBytes.size).toBeLessThan(10);
  });

  it('knows when a POST stream is finished (its response stored) and what is left to replay', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('post-a', {} as JSONRPCMessage);
    expect(store.finishedReplay(priming)).toBeUndefined();
    await store.storeEvent('post-a', note(1));
    await store.storeEvent('post-a', { jsonrpc: '2.0', id: 4, result: {} });
    expect(store.finishedReplay(priming)?.map((e) => e.message)).toEqual([
      note(1),
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
    const get = await store.storeEvent(GET, note(2));
    expect(store.finishedReplay(get)).toBeUndefined();
  });
});
