import type { ToolContext } from '@code-cluster/mcp-kit';
import type { RoverdtClient } from '@code-cluster/shared/roverdt';

/** What roverdt-mcp's tools, resources and prompts need. */
export interface RoverdtDeps {
  roverdt: RoverdtClient;
  /**
   * Pause before each leg of ejecutar_ruta, ms: the twin drives a leg in one request, and this pacing keeps
   * progress observable (and a route cancellable between legs) while a route still ends in seconds.
   */
  legDelayMs: number;
}

export type RoverdtToolContext = ToolContext<RoverdtDeps>;
