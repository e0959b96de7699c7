/**
 * Pretty-prints JSON for people: objects and arrays that fit in the line stay on one line
 * (`{ "type": "integer" }`), larger ones break into one member per line. The output is valid JSON.
 */
export function formatJson(value: unknown, width = 100, indent = 0): string {
  return format(value, width, indent, indent);
}

function format(value: unknown, width: number, indent: number, column: number): string {
  const flat = inline(value);
  if (column + flat.length <= width || value === null || typeof value !== 'object') return flat;
  const pad = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => pad + format(item, width, indent + 2, indent + 2));
    return `[\n${items.join(',\n')}\n${close}]`;
  }
  const entries = members(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const lines = entries.map(([key, member]) => {
    const head = `${pad}${JSON.stringify(key)}: `;
    return head + format(member, width, indent + 2, head.length);
  });
  return `{\n${lines.join(',\n')}\n${close}}`;
}

function inline(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  const entries = members(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  return `{ ${entries.map(([key, member]) => `${JSON.stringify(key)}: ${inline(member)}`).join(', ')} }`;
}

/** Members as JSON.stringify keeps them: undefined and functions are dropped. */
function members(object: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(object).filter(([, member]) => member !== undefined && typeof member !== 'function');
}
