import type { ToolContext } from '@code-cluster/mcp-kit';
import type { LabClient } from '@code-cluster/shared/lab';

/** What lab-mcp's tools, resources and prompts need: the lab suite's client and how often to poll it. */
export interface LabDeps {
  lab: LabClient;
  /** How often resultado_entrega asks for a grading's progress while it waits, ms. */
  pollIntervalMs: number;
}

export type LabToolContext = ToolContext<LabDeps>;
