/** Something that notices new events in a topic. */
export interface TopicWatcher {
  /**
   * Calls `onChange` after new events arrive in `topic` (one call may cover several events). Resolves once
   * watching has begun, so nothing published after that is missed, with the function that stops it.
   */
  watch(topic: string, onChange: () => void): Promise<() => void>;
}

export interface PollingWatcherOptions {
  /** Pause between two rounds of polling, ms. */
  intervalMs?: number;
  onError?: (error: unknown) => void;
}

export const DEFAULT_POLL_INTERVAL_MS = 500;

/**
 * Watches topics by polling where each one's log stands (`readLastSeq`), one round every `intervalMs` and
 * only while someone watches. For a hub reached over REST, which has no push channel: a publish is noticed
 * within one interval plus one request.
 */
export function pollingWatcher(
  readLastSeq: (topic: string) => Promise<number>,
  options: PollingWatcherOptions = {},
): TopicWatcher {
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const watched = new Map<string, { lastSeq: number | undefined; listeners: Set<() => void> }>();
  let timer: NodeJS.Timeout | undefined;

  const read = async (topic: string): Promise<number | undefined> => {
    try {
      return await readLastSeq(topic);
    } catch (error) {
      options.onError?.(error);
      return undefined;
    }
  };

  const round = async () => {
    await Promise.all(
      [...watched].map(async ([topic, entry]) => {
        const seq = await read(topic);
        if (seq === undefined) return;
        // A baseline that could not be read at watch time is taken from the first successful poll.
        const changed = entry.lastSeq !== undefined && seq > entry.lastSeq;
        entry.lastSeq = Math.max(seq, entry.lastSeq ?? 0);
        if (changed) for (const listener of entry.listeners) listener();
      }),
    );
  };

  const schedule = () => {
    if (timer || watched.size === 0) return;
    timer = setTimeout(() => {
      void round().finally(() => {
        timer = undefined;
        schedule();
      });
    }, intervalMs);
    timer.unref();
  };

  return {
    async watch(topic, onChange) {
      let entry = watched.get(topic);
      if (!entry) {
        entry = { lastSeq: await read(topic), listeners: new Set() };
        // Another watch of the same topic may have started while this one read its baseline.
        entry = watched.get(topic) ?? entry;
        watched.set(topic, entry);
      }
      const listener = () => onChange();
      entry.listeners.add(listener);
      schedule();
      return () => {
        entry.listeners.delete(listener);
        if (entry.listeners.size === 0 && watched.get(topic) === entry) watched.delete(topic);
      };
    },
  };
}

/** A watcher that exists only once `load` resolves (an embedded hub, loaded on first use). */
export function deferredWatcher(load: () => Promise<TopicWatcher>): TopicWatcher {
  let loaded: Promise<TopicWatcher> | undefined;
  return {
    async watch(topic, onChange) {
      loaded ??= load();
      return (await loaded).watch(topic, onChange);
    },
  };
}
