import type { AnyTool } from './tools/define.js';
import { toJsonSchema } from './tools/json-schema.js';

/**
 * The README table of a server's tools, derived from the definitions (never written by hand): name,
 * what it is for, its arguments (required in bold), and whether it writes.
 */
export function renderToolsTable(tools: readonly AnyTool<never>[]): string {
  const rows = tools.map((tool) => {
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
    const purpose = tool.description.split('. ')[0]!.replace(/\.$/, '').replace(/\|/g, '\\|');
    return `| \`${tool.name}\` | ${purpose}. | ${args || '—'} | ${access} |`;
  });
  return [
    '| tool | what it is for | arguments (bold: required) | access |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
