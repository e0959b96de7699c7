import type { TopicWatcher } from '@code-cluster/shared/hub';
import type { AppendResult, StoredEvent, TopicRecord } from './store.js';

type Maybe<T> = T | Promise<T>;

/**
 * What the use cases need of the hub's log, whatever holds it: the SQLite file (store.ts, synchronous) or a
 * JetStream stream (jetstream.ts). The contract is the same: per-topic sequences from 1 without gaps,
 * `append` returns only once the event is durable, idempotency keys kept as long as the events' retention.
 */
export interface HubLog {
  append(topic: string, type: string, data: string, idempotencyKey?: string): Maybe<AppendResult>;
  readAfter(topic: string, afterSeq: number, limit: number): Maybe<StoredEvent[]>;
  topic(name: string): Maybe<TopicRecord | undefined>;
  topics(): Maybe<TopicRecord[]>;
  lastSeq(topic: string): Maybe<number>;
  close(): Maybe<void>;
}

/** A watcher the publish path tells about its own events at once. */
export interface LogNotices extends TopicWatcher {
  published(topic: string, seq: number): void;
  stop(): void;
}
