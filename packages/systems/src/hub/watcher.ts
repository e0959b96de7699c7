import { TopicListeners } from './listeners.js';
import type { HubStore } from './store.js';

export const DEFAULT_WATCH_INTERVAL_MS = 200;

/**
 * Notices new events for the watchers of this process. A publish through this process's store is told at
 * once (`published`); one by another process sharing the database file is noticed by polling
 * `PRAGMA data_version` (one cheap pragma per interval, and one indexed lookup per watched topic only when
 * it moved), and only while someone watches. Worst case for another process: one interval.
 */
export class LogWatcher extends TopicListeners {
  private timer: NodeJS.Timeout | undefined;
  private dataVersion = 0;

  constructor(
    private readonly store: HubStore,
    private readonly options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
  ) {
    super(options.onError);
  }

  protected firstListener(topic: string): number {
    // This topic is already counted: it is the only one when nothing else was watched.
    if (this.watchedCount() === 1) this.dataVersion = this.store.dataVersion();
    this.start();
    return this.store.lastSeq(topic);
  }

  protected lastListenerGone(): void {
    if (this.watchedCount() === 0) this.stop();
  }

  /** One polling round: has another connection committed, and did a watched topic move? */
  check(): void {
    const version = this.store.dataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    for (const topic of this.watchedTopics()) this.advance(topic, this.store.lastSeq(topic));
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
}
