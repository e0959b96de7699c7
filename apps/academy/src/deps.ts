import type { ToolContext } from '@code-cluster/mcp-kit';
import type { AcademyClient } from '@code-cluster/shared/academy';

/** What academy-mcp's tools, resources and prompts need: the academy system's client. */
export interface AcademyDeps {
  academy: AcademyClient;
}

export type AcademyToolContext = ToolContext<AcademyDeps>;
