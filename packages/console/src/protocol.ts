import { firstSentence, inputErrorsAreToolResults } from '@code-cluster/shared/protocol';
import type { WireMessage } from './peer.js';

/** Facts of the MCP protocol the console relies on (DESIGN.md §3). */

export const CLIENT_INFO = { name: 'code-console', version: '0.1.0' } as const;

/** The version the course's session uses. */
export const DEFAULT_PROTOCOL_VERSION = '2025-06-18';

/** What the console knows of the protocol comes from the same definitions the servers enforce. */
export { ErrorCodes, isSupportedVersion } from '@code-cluster/shared/protocol';

/** Where a tool call whose arguments violate the inputSchema surfaces (SEP-1303 moved it in 2025-11-25). */
export type SchemaViolationLayer = 'protocol' | 'result';

export function schemaViolationLayer(protocolVersion: string): SchemaViolationLayer {
  return inputErrorsAreToolResults(protocolVersion) ? 'result' : 'protocol';
}

export function initializeParams(protocolVersion: string): Record<string, unknown> {
  return { protocolVersion, capabilities: {}, clientInfo: { ...CLIENT_INFO } };
}

/** The `result` of a response as an object, or undefined when the response is an error or malformed. */
export function resultOf(message: WireMessage): Record<string, unknown> | undefined {
  const result = message.result;
  return result !== null && typeof result === 'object' && !Array.isArray(result)
    ? (result as Record<string, unknown>)
    : undefined;
}

/** The text blocks of a tools/call result. */
export function textBlocks(message: WireMessage): string[] {
  const content = resultOf(message)?.['content'];
  if (!Array.isArray(content)) return [];
  return content
    .filter(
      (block): block is { type: 'text'; text: string } =>
        block?.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text);
}

export interface ToolSummary {
  name: string;
  summary: string;
}

/** Tool names with the first sentence of their description, from a tools/list response. */
export function toolSummaries(message: WireMessage): ToolSummary[] {
  const tools = resultOf(message)?.['tools'];
  if (!Array.isArray(tools)) return [];
  return tools
    .filter((tool): tool is { name: string; description?: unknown } => typeof tool?.name === 'string')
    .map((tool) => ({ name: tool.name, summary: summarise(tool.description) }));
}

/** The first sentence (as the README tables take it), clipped to one line of the list. */
function summarise(description: unknown): string {
  if (typeof description !== 'string') return '';
  const sentence = firstSentence(description);
  return sentence.length > 100 ? `${sentence.slice(0, 99)}…` : sentence;
}
