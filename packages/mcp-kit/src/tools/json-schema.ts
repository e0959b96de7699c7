import { z } from 'zod';
import type { AnyTool } from './define.js';

/**
 * The JSON Schema a client sees in `tools/list`: what zod describes, minus noise that says nothing to a
 * model (the `$schema` URI, the ±2^53 bounds zod puts on every integer, the long regex behind an ISO date
 * whose `format` already says it), and in the dialect every client accepts: one type per schema. Zod
 * writes a nullable primitive as `type: ["string", "null"]`, which single-type dialects (Gemini function
 * declarations, among others) reject; it becomes an `anyOf` of single-type branches instead.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return prune(json) as Record<string, unknown>;
}

/** Each tool's schemas as `tools/list` shows them, by tool name. */
export type ToolSchemas = Record<
  string,
  { input: Record<string, unknown>; output?: Record<string, unknown> }
>;

/**
 * The schemas of `tools`, for a bin's build to convert once (scripts/build-app.mjs). Two different tools of
 * one name would make the table ambiguous, so they are refused.
 */
export function convertToolSchemas(tools: readonly AnyTool<unknown>[]): ToolSchemas {
  const schemas: ToolSchemas = {};
  const seen = new Map<string, AnyTool<unknown>>();
  for (const tool of tools) {
    const other = seen.get(tool.name);
    if (other && other !== tool) throw new Error(`two different tools are named '${tool.name}'`);
    seen.set(tool.name, tool);
    schemas[tool.name] = {
      input: toJsonSchema(tool.input, 'input'),
      ...(tool.output ? { output: toJsonSchema(tool.output, 'output') } : {}),
    };
  }
  return schemas;
}

function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (node === null || typeof node !== 'object') return node;
  const source = Array.isArray((node as { type?: unknown }).type)
    ? singleTypes(node as Record<string, unknown> & { type: string[] })
    : node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) ||
      (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)
    ) {
      continue;
    }
    if (key === 'pattern' && (source as { format?: unknown }).format === 'date-time') continue;
    out[key] = prune(value);
  }
  return out;
}

/** Keywords that constrain only values of one JSON type; each goes to the branch of its type. */
const KEYWORDS_OF_TYPE: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
  ],
};

/**
 * `{type: [A, B], …}` as `{anyOf: [{type: A, …A's keywords}, {type: B, …}], …the rest}`: the same set of
 * values, since a keyword of one type never constrains a value of another.
 */
function singleTypes(node: Record<string, unknown> & { type: string[] }): Record<string, unknown> {
  const { type: types, ...rest } = node;
  const specific = new Set(Object.values(KEYWORDS_OF_TYPE).flat());
  const outer = Object.fromEntries(Object.entries(rest).filter(([key]) => !specific.has(key)));
  const branches = types.map((type) => {
    const branch: Record<string, unknown> = { type };
    for (const key of KEYWORDS_OF_TYPE[type] ?? []) if (key in rest) branch[key] = rest[key];
    return branch;
  });
  return { ...outer, anyOf: branches };
}
