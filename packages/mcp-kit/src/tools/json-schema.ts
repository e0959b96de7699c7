import { z } from 'zod';

/**
 * The JSON Schema a client sees in `tools/list`: what zod describes, minus noise that says nothing to a
 * model (the `$schema` URI, the ±2^53 bounds zod puts on every integer, the long regex behind an ISO date
 * whose `format` already says it).
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return prune(json) as Record<string, unknown>;
}

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)
    ) {
      continue;
    }
    if (key === 'pattern' && (node as { format?: unknown }).format === 'date-time') continue;
    out[key] = prune(value);
  }
  return out;
}
