import type { ToolContext } from '@code-cluster/mcp-kit';
import type { LabClient } from '@code-cluster/shared/lab';
import type { SessionProgress } from './progress.js';

/** What lab-mcp's tools, resources and prompts need: the lab suite's client and how often to poll it. */
export interface LabDeps {
  lab: LabClient;
  /** How often resultado_entrega asks for a grading's progress while it waits, ms. */
  pollIntervalMs: number;
  /** Set for each MCP session by `labServer.sessionDeps`: whose labs this session shows. */
  progress?: SessionProgress;
}

/** The session's progress; every session has one (the kit builds each session's deps). */
export function progressOf(deps: LabDeps): SessionProgress {
  if (!deps.progress)
    throw new Error('lab-mcp deps without a session: build the server with createKitServer');
  return deps.progress;
}

export type LabToolContext = ToolContext<LabDeps>;
