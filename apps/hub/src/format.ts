import { fenceUntrusted } from '@code-cluster/mcp-kit';
import type { HubEvent } from '@code-cluster/shared/hub';

/** Spanish text of hub-mcp's answers. */

/**
 * One event per line (its data as one-line JSON), fenced: the events are written by users and systems,
 * so the model reads them as data, never as instructions.
 */
export function fencedEvents(events: readonly HubEvent[]): string {
  const rows = events.map(
    (e) => `#${e.seq} ${e.published_at} tipo=${e.type} datos=${JSON.stringify(e.data)}`,
  );
  return fenceUntrusted('eventos escritos por usuarios y sistemas', rows.join('\n'));
}

export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function lines(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined).join('\n');
}
