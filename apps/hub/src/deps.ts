import type { ToolContext } from '@code-cluster/mcp-kit';
import type { HubClient } from '@code-cluster/shared/hub';

/** What hub-mcp's tools, resources and prompts need: the event hub's client, nothing else. */
export interface HubDeps {
  hub: HubClient;
}

export type HubToolContext = ToolContext<HubDeps>;
