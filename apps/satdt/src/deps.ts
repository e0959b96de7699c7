import type { ToolContext } from '@code-cluster/mcp-kit';
import type { SatdtClient } from '@code-cluster/shared/satdt';

/** NORAD ids whose element sets changed in one refresh. */
export interface ElementChangeEvent {
  updated: readonly number[];
  added: readonly number[];
}

/**
 * Subscribes to changes of the twin's element sets; returns the unsubscribe. Listening never loads the
 * twin: its elements can only change once something loaded it.
 */
export type ElementChanges = (listener: (change: ElementChangeEvent) => void) => () => void;

/** What satdt-mcp's tools, resources and prompts need: the twin's client, and its change feed when embedded. */
export interface SatdtDeps {
  satdt: SatdtClient;
  /** Absent for a remote twin: REST has no push channel, so nothing notifies. */
  elementChanges?: ElementChanges;
  /** Tells this session's client that the resource list changed (mcp-kit sends it once the handshake is over). */
  resourcesChanged?: () => void;
}

export type SatdtToolContext = ToolContext<SatdtDeps>;
