import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const DEFAULT_MAX_EVENTS = 1_000;
export const DEFAULT_MAX_EVENT_BYTES = 4 * 1024 * 1024;

interface StoredEvent {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * The SSE events of ONE session, kept so a client whose stream dropped can resume with `Last-Event-ID`.
 *
 * Unlike the SDK's example store, it is per session (the SDK names every session's GET stream
 * `_GET_stream`, so a shared store would replay one client's notifications to another), it finds the stream
 * of an event by lookup, not by splitting the id on `_` (which breaks on `_GET_stream` itself), it skips the
 * empty priming events on replay, and it is bounded: the oldest events go first once the session holds more
 * than `maxEvents` events or `maxBytes` of them.
 *
 * Event ids are `<sequence>.<stream>`: a stream whose old events were evicted is still recognised, and
 * replay then resumes with what is left.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<number, StoredEvent>();
  private streams = new Set<string>();
  /** POST streams whose response has been stored: nothing more will ever be sent on them. */
  private readonly finished = new Set<string>();
  private next = 1;
  private bytes = 0;

  constructor(
    private readonly maxEvents = DEFAULT_MAX_EVENTS,
    private readonly maxBytes = DEFAULT_MAX_EVENT_BYTES,
  ) {}

  /** Events held now (for tests and metrics). */
  get size(): number {
    return this.events.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.next++;
    const bytes = JSON.stringify(message).length;
    this.events.set(seq, { streamId, message, bytes });
    this.streams.add(streamId);
    if ('id' in message && ('result' in message || 'error' in message)) this.finished.add(streamId);
    this.bytes += bytes;
    this.evict();
    return `${seq}.${streamId}`;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.parse(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const parsed = this.parse(lastEventId);
    if (!parsed) throw new Error('unknown event id');
    // Walks the live map (not a copy), so an event stored while replay awaits is replayed too.
    for (const [seq, event] of this.events) {
      if (seq <= parsed.seq || event.streamId !== parsed.streamId) continue;
      // Priming events carry no message: they only give the client an id to resume from.
      if (!('jsonrpc' in event.message)) continue;
      await send(`${seq}.${event.streamId}`, event.message);
    }
    return parsed.streamId;
  }

  /**
   * The events to replay after `lastEventId` when its stream is finished (its response was stored), or
   * undefined when the stream may still carry more (the GET stream, a request still running). Since
   * 2025-11-25 a POST stream carries one request, so its response is its last event: the SDK would keep a
   * resumed stream open forever after replaying it, so the HTTP server answers these itself and ends them.
   */
  finishedReplay(lastEventId: string): Array<{ id: string; message: JSONRPCMessage }> | undefined {
    const parsed = this.parse(lastEventId);
    if (!parsed || !this.finished.has(parsed.streamId)) return undefined;
    const replay: Array<{ id: string; message: JSONRPCMessage }> = [];
    for (const [seq, event] of this.events) {
      if (seq <= parsed.seq || event.streamId !== parsed.streamId || !('jsonrpc' in event.message)) continue;
      replay.push({ id: `${seq}.${event.streamId}`, message: event.message });
    }
    return replay;
  }

  private parse(eventId: string): { seq: number; streamId: string } | undefined {
    const dot = eventId.indexOf('.');
    if (dot <= 0) return undefined;
    const seq = Number(eventId.slice(0, dot));
    const streamId = eventId.slice(dot + 1);
    if (!Number.isSafeInteger(seq) || seq <= 0 || seq >= this.next || !this.streams.has(streamId)) {
      return undefined;
    }
    return { seq, streamId };
  }

  private evict(): void {
    for (const [seq, event] of this.events) {
      if (this.events.size <= this.maxEvents && this.bytes <= this.maxBytes) break;
      this.events.delete(seq);
      this.bytes -= event.bytes;
    }
    // Every POST stream has its own id: forget the ones whose events are all gone, now and then.
    if (this.streams.size > 2 * this.maxEvents) {
      this.streams = new Set([...this.events.values()].map((event) => event.streamId));
      for (const streamId of this.finished) if (!this.streams.has(streamId)) this.finished.delete(streamId);
    }
  }
}
