import type { ToolContext } from '@code-cluster/mcp-kit';
import type { GroundstationClient } from '@code-cluster/shared/groundstation';

/** `consulta` (default): stations, health, bookings. `operador`: also programs maintenance. */
export const SCOPES = ['consulta', 'operador'] as const;
export type Scope = (typeof SCOPES)[number];

/** What groundstation-mcp's tools, resources and prompts need: the system's client and the server's scope. */
export interface GroundstationDeps {
  groundstation: GroundstationClient;
  scope: Scope;
}

export type GroundstationToolContext = ToolContext<GroundstationDeps>;
