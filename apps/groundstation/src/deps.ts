import type { ToolContext } from '@code-cluster/mcp-kit';
import type { GroundstationClient } from '@code-cluster/shared/groundstation';

/** `consulta` (default): stations, health, bookings. `operador`: also programs maintenance. */
export const SCOPES = ['consulta', 'operador'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * How a session in `consulta` may become an operator's (solicitar_acceso_operador): by typing
 * `credential` on a one-time loopback page (URL-mode elicitation), or, when `confirm` is on
 * (GROUNDSTATION_ELEVATION=confirm), by a yes/no of a client with form-mode elicitation only.
 * `possible`: this process holds what the system needs for operator actions, so granting means something.
 */
export interface Elevation {
  possible: boolean;
  credential: string | undefined;
  confirm: boolean;
}

/**
 * What groundstation-mcp's tools, resources and prompts need: the system's client, the session's scope
 * (per session: an elevated session's becomes `operador`) and how it may be elevated.
 */
export interface GroundstationDeps {
  groundstation: GroundstationClient;
  scope: Scope;
  elevation?: Elevation;
  /** The server runs with --read-only: there are no operator tools to grant. */
  readOnly?: boolean;
}

export type GroundstationToolContext = ToolContext<GroundstationDeps>;
