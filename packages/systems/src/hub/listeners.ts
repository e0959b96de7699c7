import type { LogNotices } from './log.js';

interface Watched {
  lastSeq: number;
  listeners: Set<() => void>;
}

/**
 * The listeners of each watched topic and the newest sequence they were told about; how news of other
 * processes arrives (polling a file, a NATS subscription) is the subclass's part.
 */
export abstract class TopicListeners implements LogNotices {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly onError?: (error: unknown) => void) {}

  /** The topic gets its first listener: start noticing it; returns its current last sequence. */
  protected abstract firstListener(topic: string): number | Promise<number>;
  /** The topic's last listener left (it is no longer in `watchedTopics`). */
  protected abstract lastListenerGone(topic: string): void;
  abstract stop(): void;

  async watch(topic: string, onChange: () => void): Promise<() => void> {
    let entry = this.watched.get(topic);
    if (!entry) {
      entry = { lastSeq: 0, listeners: new Set() };
      this.watched.set(topic, entry);
      const watched = entry;
      try {
        watched.lastSeq = Math.max(watched.lastSeq, await this.firstListener(topic));
      } catch (error) {
        this.watched.delete(topic);
        throw error;
      }
    }
    const listener = () => onChange();
    const watched = entry;
    watched.listeners.add(listener);
    return () => {
      watched.listeners.delete(listener);
      if (watched.listeners.size === 0 && this.watched.get(topic) === watched) {
        this.watched.delete(topic);
        this.lastListenerGone(topic);
      }
    };
  }

  /** Called right after this process stored an event. */
  published(topic: string, seq: number): void {
    this.advance(topic, seq);
  }

  protected watchedCount(): number {
    return this.watched.size;
  }

  protected watchedTopics(): string[] {
    return [...this.watched.keys()];
  }

  protected advance(topic: string, seq: number): void {
    const entry = this.watched.get(topic);
    if (!entry || seq <= entry.lastSeq) return;
    entry.lastSeq = seq;
    for (const listener of [...entry.listeners]) {
      try {
        listener();
      } catch (error) {
        this.onError?.(error);
      }
    }
  }
}
