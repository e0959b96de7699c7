import { firstSentence } from '@code-cluster/shared/protocol';
import { isViewOnly } from './tools/apps.js';
import type { AnyTool } from './tools/define.js';
import { toJsonSchema } from './tools/json-schema.js';

// The README tables and the console's tool lists summarise a description the same way.
export { firstSentence };

/**
 * The README table of a server's tools, derived from the definitions (never written by hand): name,
 * what it is for, its arguments (required in bold), and whether it writes. View-only tools (MCP Apps) are
 * left out: no model and no client without views ever sees them.
 */
export function renderToolsTable(tools: readonly AnyTool<never>[]): string {
  const listed = tools.filter((tool) => !isViewOnly(tool as AnyTool<unknown>));
  const rows = listed.map((tool) => {
    const schema = toJsonSchema(tool.input, 'input') as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const required = new Set(schema.required ?? []);
    const args = Object.keys(schema.properties ?? {})
      .map((name) => (required.has(name) ? `**${name}**` : name))
      .join(', ');
    const access = tool.annotations.readOnlyHint
      ? 'lectura'
      : tool.annotations.destructiveHint
        ? 'escritura destructiva'
        : 'escritura';
    const purpose = firstSentence(tool.description).replace(/\.$/, '').replace(/\|/g, '\\|');
    return `| \`${tool.name}\` | ${purpose}. | ${args || '—'} | ${access} |`;
  });
  return [
    '| tool | what it is for | arguments (bold: required) | access |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
