import { createHash, randomUUID } from 'node:crypto';
import {
  JetStreamApiCodes,
  JetStreamApiError,
  type JetStreamClient,
  type JetStreamManager,
  jetstream,
  jetstreamManager,
  type StoredMsg,
} from '@nats-io/jetstream';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { Refusal, refuse } from '../refusal.js';
import { TopicListeners } from './listeners.js';
import type { HubLog } from './log.js';
import {
  type AppendResult,
  DEFAULT_RETENTION,
  type EventRecord,
  hashRequest,
  type RetentionPolicy,
  type StoredEvent,
  type TopicRecord,
} from './store.js';

export const DEFAULT_HUB_STREAM = 'CODE_CLUSTER_HUB';

/** A JetStream request that gets no answer in this time fails: a tool never waits on a NATS that is gone. */
const REQUEST_TIMEOUT_MS = 2_000;

export interface JetStreamLogOptions {
  url: string;
  stream?: string;
  retention?: Partial<RetentionPolicy>;
  now?: () => number;
}

/** An event as stored in its message on `hub.t.<topic>`. */
interface EventBody {
  id: string;
  seq: number;
  type: string;
  data: string;
  key: string | null;
  at: number;
}

/** The record of an idempotency key on `hub.k.<topic>.<hash>`: a claim first, then (seq set) its event. */
interface KeyBody {
  id: string;
  hash: string;
  type: string;
  at: number;
  seq?: number;
}

/**
 * A topic as one subject token: the API's names are `[a-z0-9.-]`, so its dots become `_` (a character no
 * topic has) and a topic never spans subject levels.
 */
const topicToken = (topic: string) => topic.replaceAll('.', '_');
const tokenTopic = (token: string) => token.replaceAll('_', '.');

/**
 * Subjects of a stream's hub: `hub.t.<topic>` and `hub.k.<topic>.<key hash>` for the default stream; another
 * stream S has its own `hub.S.t.…`, since two streams of one server cannot hold the same subjects.
 */
class Subjects {
  readonly root: string;
  constructor(stream: string) {
    this.root = stream === DEFAULT_HUB_STREAM ? 'hub' : `hub.${stream}`;
  }
  event(topic: string): string {
    return `${this.root}.t.${topicToken(topic)}`;
  }
  key(topic: string, key: string): string {
    return `${this.root}.k.${topicToken(topic)}.${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
  }
  get all(): string[] {
    return [`${this.root}.t.*`, `${this.root}.k.*.*`];
  }
  topicOf(subject: string): string {
    return tokenTopic(subject.slice(`${this.root}.t.`.length));
  }
}

/**
 * The hub's log on NATS JetStream: one stream, a subject per topic. Each event carries its topic sequence,
 * kept gap-free by publishing with "expected last subject sequence" (the server refuses a racing writer,
 * who reads the new head and tries again). An idempotency key is claimed by a message written with expected
 * last subject sequence 0, so only one publisher ever owns it, however long ago it was used; the event then
 * goes with the claim's id as `Nats-Msg-Id`, so a retry after a crash between the two finds the event
 * instead of storing it twice (within the stream's duplicate window), and a second message confirms the
 * key with the event's sequence. Retention is the stream's own limits (per subject and by age).
 */
export class JetStreamLog implements HubLog {
  private constructor(
    readonly connection: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    readonly stream: string,
    private readonly now: () => number,
  ) {
    this.subjects = new Subjects(stream);
  }

  private readonly subjects: Subjects;

  static async open(options: JetStreamLogOptions): Promise<JetStreamLog> {
    const connection = await connect({
      servers: options.url,
      // Keep trying for ever once connected: tools answer "not available" meanwhile and recover after.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      timeout: REQUEST_TIMEOUT_MS,
    });
    try {
      const jsm = await jetstreamManager(connection, { timeout: REQUEST_TIMEOUT_MS });
      const stream = options.stream ?? DEFAULT_HUB_STREAM;
      const retention = { ...DEFAULT_RETENTION, ...options.retention };
      const config = {
        subjects: new Subjects(stream).all,
        allow_direct: true,
        max_msgs_per_subject: retention.maxEventsPerTopic > 0 ? retention.maxEventsPerTopic : -1,
        max_age: retention.maxAgeMs > 0 ? retention.maxAgeMs * 1_000_000 : 0,
      };
      try {
        await jsm.streams.info(stream);
        await jsm.streams.update(stream, config);
      } catch (error) {
        if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound))
          throw error;
        await jsm.streams.add({ name: stream, ...config });
      }
      const js = jetstream(connection, { timeout: REQUEST_TIMEOUT_MS });
      return new JetStreamLog(connection, js, jsm, stream, options.now ?? Date.now);
    } catch (error) {
      await connection.close();
      throw error;
    }
  }

  async append(topic: string, type: string, data: string, idempotencyKey?: string): Promise<AppendResult> {
    return this.available(async () => {
      checkTopic(topic);
      if (!idempotencyKey)
        return {
          kind: 'stored',
          event: await this.appendEvent(topic, randomUUID(), type, data, null, this.now()),
        };
      const hash = hashRequest(type, data);
      const subject = this.subjects.key(topic, idempotencyKey);
      for (;;) {
        const found = await this.last(subject);
        if (found) {
          const claim = found.json<KeyBody>();
          const earlier = (seq: number): EventRecord => ({
            id: claim.id,
            topic,
            seq,
            type: claim.type,
            idempotencyKey,
            publishedAt: claim.at,
          });
          if (claim.hash !== hash) return { kind: 'conflict', event: earlier(claim.seq ?? 0) };
          if (claim.seq !== undefined) return { kind: 'duplicate', event: earlier(claim.seq) };
          // Claimed but not confirmed: the claimer died or is still at it. Publishing with the claim's id
          // stores the event once either way.
          const event = await this.appendEvent(topic, claim.id, type, data, idempotencyKey, claim.at);
          await this.confirm(subject, found.seq, claim, event.seq);
          return { kind: 'duplicate', event };
        }
        const claim: KeyBody = { id: randomUUID(), hash, type, at: this.now() };
        const ack = await this.publishExpecting(subject, claim, 0);
        if (ack === undefined) continue; // another publisher claimed the key first: answer as it did
        const event = await this.appendEvent(topic, claim.id, type, data, idempotencyKey, claim.at);
        await this.confirm(subject, ack, claim, event.seq);
        return { kind: 'stored', event };
      }
    });
  }

  async readAfter(topic: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    return this.available(async () => {
      const subject = this.subjects.event(topic);
      const events: StoredEvent[] = [];
      let next = await this.streamSeqAfter(subject, afterSeq);
      while (next !== undefined && events.length < limit) {
        const message = await this.jsm.direct.getMessage(this.stream, { next_by_subj: subject, seq: next });
        if (!message) break;
        events.push(storedEvent(topic, message.json<EventBody>()));
        next = message.seq + 1;
      }
      return events;
    });
  }

  async topic(name: string): Promise<TopicRecord | undefined> {
    return this.available(async () => {
      if (!isTopicName(name)) return undefined;
      const subject = this.subjects.event(name);
      const last = await this.last(subject);
      if (!last) return undefined;
      const first = await this.jsm.direct.getMessage(this.stream, { next_by_subj: subject, seq: 1 });
      const head = last.json<EventBody>();
      const firstSeq = first ? first.json<EventBody>().seq : head.seq;
      return {
        name,
        lastSeq: head.seq,
        eventCount: head.seq - firstSeq + 1,
        firstSeq,
        lastPublishedAt: head.at,
      };
    });
  }

  async topics(): Promise<TopicRecord[]> {
    return this.available(async () => {
      const info = await this.jsm.streams.info(this.stream, { subjects_filter: this.subjects.all[0]! });
      const names = Object.keys(info.state.subjects ?? {})
        .map((subject) => this.subjects.topicOf(subject))
        .sort();
      const records = await Promise.all(names.map((name) => this.topic(name)));
      return records.filter((record): record is TopicRecord => record !== undefined);
    });
  }

  async lastSeq(topic: string): Promise<number> {
    return (await this.topic(topic))?.lastSeq ?? 0;
  }

  /** A core subscription to a topic's subject: every event stored on it, as JetStream stores it. */
  async subscribe(topic: string, onSeq: (seq: number) => void): Promise<Subscription> {
    const subscription = this.connection.subscribe(this.subjects.event(topic), {
      callback: (error, message) => {
        if (error) return;
        try {
          onSeq(message.json<EventBody>().seq);
        } catch {
          // Not an event of this hub (someone else publishing on the subject): nothing to tell.
        }
      },
    });
    // Once flushed, the server has the subscription: no event stored after this returns goes unheard.
    try {
      await this.connection.flush();
    } catch (error) {
      subscription.unsubscribe();
      throw error;
    }
    return subscription;
  }

  async close(): Promise<void> {
    await this.connection.close();
  }

  /** Appends after the topic's current head, trying again while other publishers win the race. */
  private async appendEvent(
    topic: string,
    id: string,
    type: string,
    data: string,
    key: string | null,
    at: number,
  ): Promise<EventRecord> {
    const subject = this.subjects.event(topic);
    for (;;) {
      const head = await this.last(subject);
      const body: EventBody = { id, seq: head ? head.json<EventBody>().seq + 1 : 1, type, data, key, at };
      try {
        const ack = await this.js.publish(subject, JSON.stringify(body), {
          msgID: id,
          expect: { lastSubjectSequence: head?.seq ?? 0 },
        });
        // Stored before (a retry within the duplicate window): the event is the one stored then.
        const stored = ack.duplicate
          ? (await this.jsm.direct.getMessage(this.stream, { seq: ack.seq }))!.json<EventBody>()
          : body;
        return { id, topic, seq: stored.seq, type: stored.type, idempotencyKey: key, publishedAt: stored.at };
      } catch (error) {
        if (!isWrongLastSequence(error)) throw error;
      }
    }
  }

  private async confirm(subject: string, claimSeq: number, claim: KeyBody, seq: number): Promise<void> {
    // A concurrent retry may have confirmed it already, with the same sequence: either write is the truth.
    await this.publishExpecting(subject, { ...claim, seq }, claimSeq);
  }

  /** The stream sequence of the publish, or undefined when the subject's head was not `expected`. */
  private async publishExpecting(
    subject: string,
    body: KeyBody,
    expected: number,
  ): Promise<number | undefined> {
    try {
      return (
        await this.js.publish(subject, JSON.stringify(body), { expect: { lastSubjectSequence: expected } })
      ).seq;
    } catch (error) {
      if (isWrongLastSequence(error)) return undefined;
      throw error;
    }
  }

  private last(subject: string): Promise<StoredMsg | null> {
    return this.jsm.direct.getMessage(this.stream, { last_by_subj: subject });
  }

  /**
   * The stream sequence of the first retained event of the topic with a topic sequence above `afterSeq`.
   * Topic sequences grow with stream sequences, so a binary search over the stream finds it in a few gets.
   */
  private async streamSeqAfter(subject: string, afterSeq: number): Promise<number | undefined> {
    const first = await this.jsm.direct.getMessage(this.stream, { next_by_subj: subject, seq: 1 });
    if (!first) return undefined;
    if (first.json<EventBody>().seq > afterSeq) return first.seq;
    const last = await this.last(subject);
    if (!last || last.json<EventBody>().seq <= afterSeq) return undefined;
    // Invariant: the topic's first event at or after stream seq `low` has a topic seq <= afterSeq; the first
    // at or after `high`, a greater one.
    let low = first.seq;
    let high = last.seq;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      const message = await this.jsm.direct.getMessage(this.stream, { next_by_subj: subject, seq: middle });
      if (message && message.json<EventBody>().seq <= afterSeq) low = message.seq;
      else high = middle;
    }
    return high;
  }

  /** Runs a request on the stream; a NATS that does not answer is the domain's "not available". */
  private async available<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Refusal) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw refuse.unavailable(
        `El sistema hub no está disponible: su registro en NATS JetStream no responde (${reason}). ` +
          'Vuelve a intentarlo en unos segundos.',
      );
    }
  }
}

/** Watchers fed by a NATS subscription per watched topic: a publish on any replica is heard at once. */
export class JetStreamWatcher extends TopicListeners {
  private readonly subscriptions = new Map<string, Subscription>();

  constructor(
    private readonly log: JetStreamLog,
    onError?: (error: unknown) => void,
  ) {
    super(onError);
  }

  protected async firstListener(topic: string): Promise<number> {
    const subscription = await this.log.subscribe(topic, (seq) => this.advance(topic, seq));
    // Everyone left while the subscription was being made: it is not needed any more.
    if (!this.watchedTopics().includes(topic)) {
      subscription.unsubscribe();
      return 0;
    }
    this.subscriptions.set(topic, subscription);
    // Subscribed first, then read: an event stored in between is told by either.
    return this.log.lastSeq(topic);
  }

  protected lastListenerGone(topic: string): void {
    this.subscriptions.get(topic)?.unsubscribe();
    this.subscriptions.delete(topic);
  }

  stop(): void {
    for (const subscription of this.subscriptions.values()) subscription.unsubscribe();
    this.subscriptions.clear();
  }
}

function storedEvent(topic: string, body: EventBody): StoredEvent {
  return {
    id: body.id,
    topic,
    seq: body.seq,
    type: body.type,
    data: body.data,
    idempotencyKey: body.key,
    publishedAt: body.at,
  };
}

/** The characters the API allows in a topic (its schema checks the rest): never a wildcard or a `_`. */
function isTopicName(topic: string): boolean {
  return /^[a-z0-9.-]+$/.test(topic);
}

function checkTopic(topic: string): void {
  if (isTopicName(topic)) return;
  throw refuse.invalid(`Nombre de tópico inválido: '${topic}' (solo a-z, 0-9, '.' y '-').`, {
    parameter: 'topic',
    value: topic,
  });
}

function isWrongLastSequence(error: unknown): boolean {
  return (
    error instanceof JetStreamApiError &&
    (error.code === JetStreamApiCodes.StreamWrongLastSequence ||
      error.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}
