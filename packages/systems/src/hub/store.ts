import { createHash, randomUUID } from 'node:crypto';
import { openDatabase, type SqlDatabase } from '../storage/index.js';

/** How long the log keeps events. Idempotency keys are kept for `maxAgeMs` even when events go sooner. */
export interface RetentionPolicy {
  /** Newest events kept per topic; older ones go as new ones arrive. 0: no limit. */
  maxEventsPerTopic: number;
  /** Events and idempotency keys older than this are removed, ms. 0: kept forever. */
  maxAgeMs: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = {
  maxEventsPerTopic: 10_000,
  maxAgeMs: 7 * 24 * 3_600_000,
};

/** Age-based pruning scans an index; it runs at most this often, on the publish path. */
const AGE_PRUNE_INTERVAL_MS = 60_000;

export interface StoredEvent {
  id: string;
  topic: string;
  seq: number;
  type: string;
  data: string;
  idempotencyKey: string | null;
  publishedAt: number;
}

export type EventRecord = Omit<StoredEvent, 'data'>;

export type AppendResult =
  | { kind: 'stored'; event: EventRecord }
  | { kind: 'duplicate'; event: EventRecord }
  /** The key was used before for a different event. */
  | { kind: 'conflict'; event: EventRecord };

export interface TopicRecord {
  name: string;
  lastSeq: number;
  eventCount: number;
  firstSeq: number | null;
  lastPublishedAt: number | null;
}

const MIGRATIONS = [
  `CREATE TABLE topics (
     name TEXT PRIMARY KEY,
     last_seq INTEGER NOT NULL,
     last_published_at INTEGER,
     created_at INTEGER NOT NULL
   ) WITHOUT ROWID;
   CREATE TABLE events (
     topic TEXT NOT NULL,
     seq INTEGER NOT NULL,
     id TEXT NOT NULL,
     type TEXT NOT NULL,
     data TEXT NOT NULL,
     idempotency_key TEXT,
     published_at INTEGER NOT NULL,
     PRIMARY KEY (topic, seq)
   ) WITHOUT ROWID;
   CREATE INDEX events_by_age ON events (published_at);
   CREATE TABLE idempotency_keys (
     topic TEXT NOT NULL,
     key TEXT NOT NULL,
     request_hash TEXT NOT NULL,
     seq INTEGER NOT NULL,
     event_id TEXT NOT NULL,
     type TEXT NOT NULL,
     published_at INTEGER NOT NULL,
     PRIMARY KEY (topic, key)
   ) WITHOUT ROWID;
   CREATE INDEX idempotency_keys_by_age ON idempotency_keys (published_at);`,
];

type EventRow = {
  id: string;
  topic: string;
  seq: number;
  type: string;
  data: string;
  idempotency_key: string | null;
  published_at: number;
};
type KeyRow = { request_hash: string; seq: number; event_id: string; type: string; published_at: number };
type TopicRow = {
  name: string;
  last_seq: number;
  last_published_at: number | null;
  event_count: number;
  first_seq: number | null;
};

/**
 * The hub's append-only log in SQLite, the only module that knows its SQL. Every append is one IMMEDIATE
 * transaction committed with synchronous=FULL: when `append` returns, the event survives a crash. Several
 * processes may share the file; sequences stay gap-free per topic because they are assigned inside the
 * write lock.
 */
export class HubStore {
  private readonly db: SqlDatabase;
  private readonly retention: RetentionPolicy;
  private readonly now: () => number;
  private lastAgePrune = 0;
  private readonly statements: ReturnType<typeof prepareStatements>;

  constructor(file: string, options: { retention?: Partial<RetentionPolicy>; now?: () => number } = {}) {
    this.db = openDatabase(file, { migrations: MIGRATIONS });
    this.retention = { ...DEFAULT_RETENTION, ...options.retention };
    this.now = options.now ?? Date.now;
    this.statements = prepareStatements(this.db);
    this.pruneByAge(true);
  }

  get file(): string {
    return this.db.file;
  }

  /**
   * Appends one event, durably. With an idempotency key already stored for the topic, nothing is written:
   * the original event comes back as a duplicate (same content) or a conflict (different content).
   */
  append(topic: string, type: string, data: string, idempotencyKey?: string): AppendResult {
    const publishedAt = this.now();
    const requestHash = idempotencyKey ? hashRequest(type, data) : '';
    const result = this.db.transaction((): AppendResult => {
      if (idempotencyKey) {
        const previous = this.statements.findKey.get<KeyRow>(topic, idempotencyKey);
        if (previous) {
          const event: EventRecord = {
            id: previous.event_id,
            topic,
            seq: previous.seq,
            type: previous.type,
            idempotencyKey,
            publishedAt: previous.published_at,
          };
          return { kind: previous.request_hash === requestHash ? 'duplicate' : 'conflict', event };
        }
      }
      const { last_seq: seq } = this.statements.nextSeq.get<{ last_seq: number }>(
        topic,
        publishedAt,
        publishedAt,
      )!;
      const id = randomUUID();
      this.statements.insertEvent.run(topic, seq, id, type, data, idempotencyKey ?? null, publishedAt);
      if (idempotencyKey) {
        this.statements.insertKey.run(topic, idempotencyKey, requestHash, seq, id, type, publishedAt);
      }
      if (this.retention.maxEventsPerTopic > 0 && seq > this.retention.maxEventsPerTopic) {
        this.statements.pruneByCount.run(topic, seq - this.retention.maxEventsPerTopic);
      }
      return {
        kind: 'stored',
        event: { id, topic, seq, type, idempotencyKey: idempotencyKey ?? null, publishedAt },
      };
    });
    if (result.kind === 'stored') this.pruneByAge(false);
    return result;
  }

  /** Up to `limit` events with a sequence above `afterSeq`, oldest first. */
  readAfter(topic: string, afterSeq: number, limit: number): StoredEvent[] {
    return this.statements.readAfter.all<EventRow>(topic, afterSeq, limit).map((row) => ({
      id: row.id,
      topic: row.topic,
      seq: row.seq,
      type: row.type,
      data: row.data,
      idempotencyKey: row.idempotency_key,
      publishedAt: row.published_at,
    }));
  }

  topic(name: string): TopicRecord | undefined {
    const row = this.statements.topic.get<TopicRow>(name);
    return row ? topicRecord(row) : undefined;
  }

  topics(): TopicRecord[] {
    return this.statements.topics.all<TopicRow>().map(topicRecord);
  }

  /** Sequence of the newest event of a topic; 0 when nothing was ever published to it. */
  lastSeq(topic: string): number {
    return this.statements.lastSeq.get<{ last_seq: number }>(topic)?.last_seq ?? 0;
  }

  /** Changes whenever another connection (another process) commits: a cheap "anything new?" check. */
  dataVersion(): number {
    return this.statements.dataVersion.get<{ data_version: number }>()!.data_version;
  }

  /** Removes what is older than the retention age; throttled unless forced. */
  pruneByAge(force: boolean): void {
    const now = this.now();
    if (this.retention.maxAgeMs <= 0 || (!force && now - this.lastAgePrune < AGE_PRUNE_INTERVAL_MS)) return;
    this.lastAgePrune = now;
    const cutoff = now - this.retention.maxAgeMs;
    this.db.transaction(() => {
      this.statements.pruneEventsByAge.run(cutoff);
      this.statements.pruneKeysByAge.run(cutoff);
    });
  }

  close(): void {
    this.db.close();
  }
}

function prepareStatements(db: SqlDatabase) {
  return {
    findKey: db.prepare(
      'SELECT request_hash, seq, event_id, type, published_at FROM idempotency_keys WHERE topic = ? AND key = ?',
    ),
    nextSeq: db.prepare(
      `INSERT INTO topics (name, last_seq, last_published_at, created_at) VALUES (?, 1, ?, ?)
       ON CONFLICT (name) DO UPDATE SET last_seq = last_seq + 1, last_published_at = excluded.last_published_at
       RETURNING last_seq`,
    ),
    insertEvent: db.prepare(
      'INSERT INTO events (topic, seq, id, type, data, idempotency_key, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    insertKey: db.prepare(
      `INSERT INTO idempotency_keys (topic, key, request_hash, seq, event_id, type, published_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    pruneByCount: db.prepare('DELETE FROM events WHERE topic = ? AND seq <= ?'),
    pruneEventsByAge: db.prepare('DELETE FROM events WHERE published_at < ?'),
    pruneKeysByAge: db.prepare('DELETE FROM idempotency_keys WHERE published_at < ?'),
    readAfter: db.prepare(
      `SELECT id, topic, seq, type, data, idempotency_key, published_at FROM events
       WHERE topic = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    topic: db.prepare(
      `SELECT name, last_seq, last_published_at,
              (SELECT count(*) FROM events e WHERE e.topic = t.name) AS event_count,
              (SELECT min(seq) FROM events e WHERE e.topic = t.name) AS first_seq
       FROM topics t WHERE name = ?`,
    ),
    topics: db.prepare(
      `SELECT name, last_seq, last_published_at,
              (SELECT count(*) FROM events e WHERE e.topic = t.name) AS event_count,
              (SELECT min(seq) FROM events e WHERE e.topic = t.name) AS first_seq
       FROM topics t ORDER BY name`,
    ),
    lastSeq: db.prepare('SELECT last_seq FROM topics WHERE name = ?'),
    dataVersion: db.prepare('PRAGMA data_version'),
  };
}

function topicRecord(row: TopicRow): TopicRecord {
  return {
    name: row.name,
    lastSeq: row.last_seq,
    eventCount: row.event_count,
    firstSeq: row.first_seq,
    lastPublishedAt: row.last_published_at,
  };
}

/** What makes two publishes "the same": type and data, whatever the order of the data's keys. */
export function hashRequest(type: string, data: string): string {
  return createHash('sha256')
    .update(type)
    .update('\0')
    .update(canonicalJson(JSON.parse(data)))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
