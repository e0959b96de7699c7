import { isViewOnly } from './tools/apps.js';
import type { AnyTool } from './tools/define.js';
import { toJsonSchema } from './tools/json-schema.js';

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

/**
 * Words that end in a period and never end the sentence, whatever follows (Spanish and English, lower
 * case). "etc." is not among them: it may close a sentence, and the next word's case tells.
 */
const ABBREVIATIONS = new Set([
  'p.',
  'ej.',
  'p.ej.',
  'e.g.',
  'i.e.',
  'vs.',
  'cf.',
  'aprox.',
  'máx.',
  'mín.',
  'núm.',
  'n.º',
  'pág.',
  'sr.',
  'sra.',
  'dr.',
  'dra.',
]);

/**
 * The first sentence of a description: up to a period followed by a space, unless that period closes an
 * abbreviation ("p. ej.", "e.g.") or the next word starts in lower case ("etc. y"), as no sentence does.
 */
export function firstSentence(text: string): string {
  for (const match of text.matchAll(/\.(\s+)(\S?)/g)) {
    const end = match.index + 1;
    const word =
      /\S+$/
        .exec(text.slice(0, end))?.[0]
        .replace(/^[(¿¡"'«]+/, '')
        .toLowerCase() ?? '';
    const next = match[2] ?? '';
    if (ABBREVIATIONS.has(word) || (next !== '' && next !== next.toUpperCase())) continue;
    return text.slice(0, end);
  }
  return text;
}
