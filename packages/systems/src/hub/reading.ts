import type { EventPage, EventRef, HubEvent, TopicSummary } from '@code-cluster/shared/hub';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import type { HubLog } from './log.js';
import type { EventRecord, TopicRecord } from './store.js';

/** Where a read starts: after a cursor, the newest `last` events, or from the oldest retained. */
export interface ReadRequest {
  topic: string;
  after?: string | undefined;
  last?: number | undefined;
  limit: number;
}

/** Reading the log: topics as they stand and pages of events, oldest first. */
export class Reading {
  constructor(private readonly store: HubLog) {}

  async topics(): Promise<TopicSummary[]> {
    return (await this.store.topics()).map(topicView);
  }

  async topic(name: string): Promise<TopicSummary> {
    return topicView(await this.existing(name));
  }

  async page({ topic, after, last, limit }: ReadRequest): Promise<EventPage> {
    const record = await this.existing(topic);
    let from = 0;
    let size = limit;
    if (last !== undefined) {
      from = Math.max(0, record.lastSeq - last);
      size = last;
    } else if (after !== undefined) {
      from = cursorSeq(topic, after);
    }
    const rows = await this.store.readAfter(topic, from, size + 1);
    const events = rows.slice(0, size).map(eventView);
    return {
      topic,
      events,
      next_cursor: encodeCursor(topic, events.at(-1)?.seq ?? from),
      has_more: rows.length > size,
      gap: record.firstSeq === null ? record.lastSeq > from : record.firstSeq > from + 1,
    };
  }

  /** A topic someone has published to; refused naming the known ones otherwise. */
  private async existing(name: string): Promise<TopicRecord> {
    const topic = await this.store.topic(name);
    if (topic) return topic;
    const known = (await this.store.topics()).map((t) => t.name);
    throw refuse.notFound(
      `El tópico '${name}' no existe: nadie ha publicado en él todavía. ` +
        (known.length > 0 ? `Tópicos existentes: ${known.slice(0, 20).join(', ')}.` : 'No hay tópicos aún.'),
      { topic: name },
    );
  }
}

function cursorSeq(topic: string, cursor: string): number {
  const decoded = decodeCursor(topic, cursor);
  if (decoded.ok) return decoded.seq;
  throw refuse.invalid(
    `El cursor ${JSON.stringify(cursor)} no es válido: ${decoded.reason}. Usa el cursor que ` +
      `devolvió una lectura de '${topic}', u omítelo para leer desde el evento más antiguo.`,
    { parameter: 'after' },
  );
}

export function eventRefView(event: EventRecord): EventRef {
  return {
    id: event.id,
    topic: event.topic,
    seq: event.seq,
    cursor: encodeCursor(event.topic, event.seq),
    type: event.type,
    published_at: isoUtc(event.publishedAt),
    idempotency_key: event.idempotencyKey,
  };
}

function eventView(event: EventRecord & { data: string }): HubEvent {
  return { ...eventRefView(event), data: JSON.parse(event.data) as Record<string, unknown> };
}

function topicView(topic: TopicRecord): TopicSummary {
  return {
    name: topic.name,
    last_seq: topic.lastSeq,
    last_cursor: encodeCursor(topic.name, topic.lastSeq),
    event_count: topic.eventCount,
    first_seq: topic.firstSeq,
    last_published_at: topic.lastPublishedAt === null ? null : isoUtc(topic.lastPublishedAt),
  };
}
