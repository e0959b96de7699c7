import type { z } from 'zod';
import { describePattern } from './pattern-words.js';

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
    // A record key that breaks the key's rule: the issue's path ends at the key itself.
    const keyIssue = issue.code === 'invalid_key' ? issue.issues[0] : undefined;
    const path = keyIssue ? issue.path.slice(0, -1) : issue.path;
    const argument = path.map(String).join('.') || '(argumentos)';
    const received = 'input' in issue ? issue.input : undefined;
    const rule = keyIssue ? `tiene una clave que no vale: ${requirement(keyIssue)}` : requirement(issue);
    out.push({
      argument,
      message: `'${argument}' ${rule}; recibido: ${show(received)}`,
      received,
    });
  }
  return out;
}

export function formatArgumentIssues(tool: string, issues: readonly ArgumentIssue[]): string {
  return `Argumentos inválidos para '${tool}': ${issues.map((i) => i.message).join('; ')}.`;
}

/** The rule the value broke, in words: never a zod type name, never a regular expression. */
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
      return issue.input === undefined ? 'es obligatorio' : `debe ser ${typeName(issue.expected)}`;
    case 'invalid_format':
      return formatRule(issue);
    case 'invalid_value':
      return issue.values.length === 1
        ? `debe ser ${JSON.stringify(issue.values[0])}`
        : `debe ser uno de: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `debe ser múltiplo de ${issue.divisor}`;
    case 'invalid_union':
      // A union whose definition states its own rule (in Spanish, via zod's `error`) says it; zod's own
      // default ("Invalid input") is English and says nothing about which form was wanted.
      return issue.message && !issue.message.startsWith('Invalid input')
        ? issue.message
        : 'no tiene ninguna de las formas que admite el esquema';
    case 'invalid_key':
      return 'tiene una clave que no vale';
    case 'invalid_element':
      return 'tiene un elemento que no vale';
    case 'unrecognized_keys':
      return `no admite las claves ${issue.keys.join(', ')}`;
    case 'custom':
      // Written by the tool's own refinement, in Spanish.
      return issue.message;
  }
}

function formatRule(issue: z.core.$ZodIssueInvalidStringFormat): string {
  switch (issue.format) {
    case 'datetime':
      return 'debe ser una fecha ISO-8601 en UTC, p. ej. 2026-11-30T03:14:00Z';
    case 'regex': {
      const words = issue.pattern === undefined ? undefined : describePattern(issue.pattern);
      return words === undefined
        ? 'no tiene el formato que pide su descripción'
        : `debe tener el formato: ${words}`;
    }
    case 'starts_with':
      return `debe empezar por ${JSON.stringify((issue as { prefix?: string }).prefix)}`;
    case 'ends_with':
      return `debe terminar en ${JSON.stringify((issue as { suffix?: string }).suffix)}`;
    case 'includes':
      return `debe contener ${JSON.stringify((issue as { includes?: string }).includes)}`;
    case 'lowercase':
      return 'debe estar en minúsculas';
    case 'uppercase':
      return 'debe estar en mayúsculas';
    default:
      return `debe ser ${FORMAT_NAMES[issue.format] ?? 'un texto con el formato que pide su descripción'}`;
  }
}

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  date: 'una fecha AAAA-MM-DD',
  time: 'una hora HH:MM:SS',
  duration: 'una duración ISO-8601, p. ej. PT1H',
  email: 'una dirección de correo',
  url: 'una URL',
  uuid: 'un UUID',
  guid: 'un UUID',
  ipv4: 'una dirección IPv4',
  ipv6: 'una dirección IPv6',
  base64: 'un texto en base64',
  json_string: 'un texto JSON',
};

/** What a value of each zod type is, in words a model (and a person) reads without knowing zod. */
function typeName(expected: string): string {
  const names: Record<string, string> = {
    int: 'un número entero',
    number: 'un número',
    bigint: 'un número entero',
    string: 'un texto',
    boolean: 'true o false',
    object: 'un objeto',
    record: 'un objeto',
    map: 'un objeto',
    array: 'una lista',
    tuple: 'una lista',
    set: 'una lista sin repetidos',
    date: 'una fecha',
    null: 'null',
    literal: 'un valor concreto',
  };
  return names[expected] ?? 'un valor de otro tipo';
}

function show(value: unknown): string {
  if (value === undefined) return 'nada';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
