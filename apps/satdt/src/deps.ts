import type { ToolContext } from '@code-cluster/mcp-kit';
import type { SatdtClient } from '@code-cluster/shared/satdt';

/** What satdt-mcp's tools, resources and prompts need: the satellite twin's client, nothing else. */
export interface SatdtDeps {
  satdt: SatdtClient;
}

export type SatdtToolContext = ToolContext<SatdtDeps>;
