import { RestClient, type RestClientOptions } from '../rest/client.js';
import { SystemError } from '../rest/errors.js';
import type { RestTransport } from '../rest/types.js';
import { hubApi } from './api.js';
import type { PublishRequest } from './schemas.js';
import { pollingWatcher, type TopicWatcher } from './watch.js';

export interface HubClientOptions extends Partial<RestClientOptions> {
  /** How to notice new events: the embedded hub's own watcher; by default, polling the REST API. */
  watcher?: TopicWatcher;
  /** Interval of the default REST polling watcher, ms. */
  pollIntervalMs?: number;
}

export interface ReadOptions {
  /** Cursor from an earlier read or publish; from the oldest retained event when omitted. */
  after?: string;
  limit?: number;
  /** The newest `last` events instead (not with `after`). */
  last?: number;
}

/** Typed client of the event hub's REST API, plus change notification per topic. */
export class HubClient {
  private readonly rest: RestClient;
  private readonly watcher: TopicWatcher;

  constructor(transport: RestTransport, options: HubClientOptions = {}) {
    const { watcher, pollIntervalMs, ...rest } = options;
    this.rest = new RestClient(transport, { systemName: 'hub de eventos', ...rest });
    this.watcher =
      watcher ?? pollingWatcher((topic) => this.lastSeq(topic), { intervalMs: pollIntervalMs ?? 500 });
  }

  health(signal?: AbortSignal) {
    return this.rest.send(hubApi.health, {}, signal);
  }

  /** Appends an event; durable when this resolves. A retry with the same idempotency key is not stored again. */
  publish(topic: string, event: PublishRequest, signal?: AbortSignal) {
    return this.rest.send(hubApi.publish, { params: { topic }, body: event }, signal);
  }

  /** Events after a cursor, oldest first. */
  read(topic: string, options: ReadOptions = {}, signal?: AbortSignal) {
    return this.rest.send(hubApi.read, { params: { topic }, query: { ...options } }, signal);
  }

  listTopics(signal?: AbortSignal) {
    return this.rest.send(hubApi.listTopics, {}, signal);
  }

  getTopic(topic: string, signal?: AbortSignal) {
    return this.rest.send(hubApi.getTopic, { params: { topic } }, signal);
  }

  /** Calls `onChange` after new events arrive in `topic`; resolves with the function that stops it. */
  watch(topic: string, onChange: () => void): Promise<() => void> {
    return this.watcher.watch(topic, onChange);
  }

  close(): Promise<void> {
    return this.rest.close();
  }

  /** Where a topic's log stands; 0 for a topic nobody has published to yet. */
  private async lastSeq(topic: string): Promise<number> {
    try {
      return (await this.getTopic(topic)).last_seq;
    } catch (error) {
      if (error instanceof SystemError && error.status === 404) return 0;
      throw error;
    }
  }
}
