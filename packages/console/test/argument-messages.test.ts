import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_APPS, type ServerApp, spawnServerWithData } from '@code-cluster/testkit';
import { afterAll, expect, it } from 'vitest';

// Issue 10: an argument that breaks a rule of a tool's inputSchema gets a message that names the rule in
// words. Over every built server, in its widest surface, every tool and every pattern, enum, type and
// bound of its arguments (and of a record's keys and values) is broken on purpose, and the message is
// read for what it must say and what it must never say (a regular expression, a zod type name, English).

const WIDEST_SURFACE: Partial<Record<ServerApp, string[]>> = { groundstation: ['--scope', 'operador'] };

interface Property {
  type?: string;
  pattern?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  propertyNames?: Property;
  additionalProperties?: Property | boolean;
}
interface Tool {
  name: string;
  inputSchema: { properties?: Record<string, Property> };
}

/** What no argument message may contain. */
const NEVER =
  /regex|record|\bint\b|\bstring\b|\bnumber\b|\bboolean\b|invalid|expected|received|de tipo|\/\^/i;

/** Broken values for every rule of one property, each with what the message must say about it. */
function violations(name: string, p: Property): Array<{ rule: string; value: unknown; says: RegExp }> {
  const arg = `'${name}'`;
  const out: Array<{ rule: string; value: unknown; says: RegExp }> = [];
  const wrongType = p.type === 'string' ? 42 : 'x';
  if (p.type) {
    out.push({
      rule: `type ${p.type}`,
      value: wrongType,
      says: new RegExp(`${arg} debe ser (un |una |true o false|uno de: |")`),
    });
  }
  if (p.pattern) {
    out.push({
      rule: `pattern ${p.pattern}`,
      value: 'Ñ !',
      says: new RegExp(`${arg} debe tener el formato: [^;]{8,}; recibido`),
    });
  }
  if (p.enum)
    out.push({ rule: 'enum', value: 'zz-no-vale', says: new RegExp(`${arg} debe ser (uno de: )?"`) });
  if (p.maximum !== undefined)
    out.push({ rule: 'maximum', value: p.maximum + 1, says: new RegExp(`${arg} debe ser ≤ `) });
  if (p.minimum !== undefined)
    out.push({ rule: 'minimum', value: p.minimum - 1, says: new RegExp(`${arg} debe ser ≥ `) });
  if (p.exclusiveMinimum !== undefined) {
    out.push({ rule: 'exclusiveMinimum', value: p.exclusiveMinimum, says: new RegExp(`${arg} debe ser > `) });
  }
  if (p.exclusiveMaximum !== undefined) {
    out.push({ rule: 'exclusiveMaximum', value: p.exclusiveMaximum, says: new RegExp(`${arg} debe ser < `) });
  }
  if (p.maxLength !== undefined && p.maxLength < 100_000) {
    out.push({
      rule: 'maxLength',
      value: 'a'.repeat(p.maxLength + 1),
      says: new RegExp(`${arg} debe tener como máximo `),
    });
  }
  if (p.minLength !== undefined && p.minLength > 0) {
    out.push({ rule: 'minLength', value: '', says: new RegExp(`${arg} debe tener al menos `) });
  }
  if (p.propertyNames?.pattern) {
    out.push({
      rule: `key pattern ${p.propertyNames.pattern}`,
      value: { 'Ñ !': 'a' },
      says: new RegExp(`${arg} tiene una clave que no vale: debe tener el formato: [^;]{8,}; recibido`),
    });
  }
  const values = typeof p.additionalProperties === 'object' ? p.additionalProperties : undefined;
  if (values?.pattern) {
    out.push({
      rule: `value pattern ${values.pattern}`,
      value: { [p.propertyNames?.pattern ? 'p1' : 'clave']: 'Ñ !' },
      says: new RegExp(`'${name}\\.\\w+' debe tener el formato: [^;]{8,}; recibido`),
    });
  }
  return out;
}

const dataDir = mkdtempSync(join(tmpdir(), 'console-argument-messages-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it('names every broken rule of every argument of every tool in words', async () => {
  const checked: Record<string, number> = {};
  const failures: string[] = [];
  for (const app of SERVER_APPS) {
    const peer = spawnServerWithData(app, dataDir, WIDEST_SURFACE[app] ?? []);
    try {
      await peer.initialize('2025-11-25');
      const listed = await peer.request('tools/list');
      const tools = (listed.result as { tools: Tool[] }).tools;
      for (const tool of tools) {
        for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
          for (const { rule, value, says } of violations(name, property)) {
            const response = await peer.request('tools/call', {
              name: tool.name,
              arguments: { [name]: value },
            });
            const result = response.result as
              | { isError?: boolean; content?: Array<{ text: string }> }
              | undefined;
            const text = result?.content?.[0]?.text ?? JSON.stringify(response);
            checked[rule.split(' ')[0]!] = (checked[rule.split(' ')[0]!] ?? 0) + 1;
            if (result?.isError !== true || !text.startsWith(`Argumentos inválidos para '${tool.name}': `)) {
              failures.push(`${app}/${tool.name}.${name} (${rule}): not an argument error: ${text}`);
            } else if (!says.test(text) || NEVER.test(text)) {
              failures.push(`${app}/${tool.name}.${name} (${rule}): ${text}`);
            }
          }
        }
      }
    } finally {
      await peer.close();
    }
  }
  expect(failures).toEqual([]);
  // The cluster's schemas do have each kind of rule: the walk above really met them.
  for (const kind of ['type', 'pattern', 'enum', 'maximum', 'minimum', 'maxLength', 'key', 'value']) {
    expect(checked[kind], kind).toBeGreaterThan(0);
  }
}, 120_000);
