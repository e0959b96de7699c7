import type { TopicWatcher } from '@code-cluster/shared/hub';
import type { HubStore } from './store.js';

export const DEFAULT_WATCH_INTERVAL_MS = 200;

interface Watched {
  lastSeq: number;
  listeners: Set<() => void>;
}

/**
 * Notices new events for the watchers of this process. A publish through this process's store is told at
 * once (`published`); one by another process sharing the database file is noticed by polling
 * `PRAGMA data_version` (one cheap pragma per interval, and one indexed lookup per watched topic only when
 * it moved), and only while someone watches. Worst case for another process: one interval.
 */
export class LogWatcher implements TopicWatcher {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private dataVersion = 0;

  constructor(
    private readonly store: HubStore,
    private readonly options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
  ) {}

  async watch(topic: string, onChange: () => void): Promise<() => void> {
    let entry = this.watched.get(topic);
    if (!entry) {
      if (this.watched.size === 0) this.dataVersion = this.store.dataVersion();
      entry = { lastSeq: this.store.lastSeq(topic), listeners: new Set() };
      this.watched.set(topic, entry);
    }
    const listener = () => onChange();
    const watched = entry;
    watched.listeners.add(listener);
    this.start();
    return () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size === 0 && this.watched.get(topic) === watched) this.watched.delete(topic);
      if (this.watched.size === 0) this.stop();
    };
  }

  /** Called right after this process committed an event. */
  published(topic: string, seq: number): void {
    this.advance(topic, seq);
  }

  /** One polling round: has another connection committed, and did a watched topic move? */
  check(): void {
    const version = this.store.dataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    for (const topic of [...this.watched.keys()]) this.advance(topic, this.store.lastSeq(topic));
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      try {
        this.check();
      } catch (error) {
        this.options.onError?.(error);
      }
    }, this.options.intervalMs ?? DEFAULT_WATCH_INTERVAL_MS);
    this.timer.unref();
  }

  private advance(topic: string, seq: number): void {
    const entry = this.watched.get(topic);
    if (!entry || seq <= entry.lastSeq) return;
    entry.lastSeq = seq;
    for (const listener of [...entry.listeners]) {
      try {
        listener();
      } catch (error) {
        this.options.onError?.(error);
      }
    }
  }
}
