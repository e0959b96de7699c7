import type { z } from 'zod';

/** One argument that failed the tool's inputSchema: which argument, which bound, which value. */
export interface ArgumentIssue {
  argument: string;
  message: string;
  received?: unknown;
}

/**
 * Turns zod issues into messages a model can act on, in Spanish: the argument, the bound and the value
 * ("'horas' debe ser ≤ 72; recibido: 200"), never a zod dump.
 */
export function describeArgumentIssues(issues: readonly z.core.$ZodIssue[]): ArgumentIssue[] {
  const out: ArgumentIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ argument: key, message: `argumento desconocido '${key}'` });
      }
      continue;
    }
    const argument = issue.path.map(String).join('.') || '(argumentos)';
    const received = 'input' in issue ? issue.input : undefined;
    out.push({
      argument,
      message: `'${argument}' ${requirement(issue)}; recibido: ${show(received)}`,
      received,
    });
  }
  return out;
}

export function formatArgumentIssues(tool: string, issues: readonly ArgumentIssue[]): string {
  return `Argumentos inválidos para '${tool}': ${issues.map((i) => i.message).join('; ')}.`;
}

function requirement(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string'
        ? `debe tener como máximo ${issue.maximum} caracteres`
        : issue.origin === 'array'
          ? `debe tener como máximo ${issue.maximum} elementos`
          : `debe ser ${issue.inclusive === false ? '<' : '≤'} ${issue.maximum}`;
    case 'too_small':
      if (issue.origin === 'string') return `debe tener al menos ${issue.minimum} caracteres`;
      if (issue.origin === 'array') return `debe tener al menos ${issue.minimum} elementos`;
      return `debe ser ${issue.inclusive === false ? '>' : '≥'} ${issue.minimum}`;
    case 'invalid_type':
      return issue.input === undefined ? 'es obligatorio' : `debe ser de tipo ${typeName(issue.expected)}`;
    case 'invalid_format':
      return issue.format === 'datetime'
        ? 'debe ser una fecha ISO-8601 en UTC, p. ej. 2026-11-30T03:14:00Z'
        : `debe tener formato ${issue.format}`;
    case 'invalid_value':
      return `debe ser uno de: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `debe ser múltiplo de ${issue.divisor}`;
    default:
      return issue.message;
  }
}

function typeName(expected: string): string {
  const names: Record<string, string> = {
    int: 'entero',
    number: 'número',
    string: 'texto',
    boolean: 'booleano',
    object: 'objeto',
    array: 'lista',
  };
  return names[expected] ?? expected;
}

function show(value: unknown): string {
  if (value === undefined) return 'nada';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
