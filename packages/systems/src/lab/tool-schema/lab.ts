import type { Finding } from '@code-cluster/shared/lab';
import { excerpt, type LabDefinition, quote, type RuleDefinition } from '../grading.js';

/** A submitted tool definition, read once, with the lines of the text to point findings at. */
export interface ToolSubmission {
  tool: Record<string, unknown> | undefined;
  /** Why the text could not be read as a tool definition. */
  unreadable: string | undefined;
  lines: string[];
}

const ANNOTATIONS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const WHEN_TO_USE = /\b(úsala|usala|úsalo|usa|cuando|para)\b/i;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function read(content: string): ToolSubmission {
  const lines = content.split(/\r?\n/);
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    return { tool: undefined, unreadable: `no es JSON válido (${(error as Error).message})`, lines };
  }
  const listed = listedTools(value);
  if (listed?.length === 1 && isObject(listed[0])) return { tool: listed[0], unreadable: undefined, lines };
  if (listed) {
    const names = listed.map((tool) => (isObject(tool) ? tool.name : undefined));
    return {
      tool: undefined,
      unreadable:
        listed.length === 0
          ? 'es una lista de herramientas vacía: entrega la definición de una herramienta'
          : `es una lista de ${listed.length} herramientas (${names.map((n) => quote(n)).join(', ')}), como ` +
            'la respuesta de tools/list, y el laboratorio corrige una sola definición: entrega solo el ' +
            `objeto de una de ellas (p. ej. el de ${quote(names[0])}), sin el envoltorio {"tools": [...]}`,
      lines,
    };
  }
  if (!isObject(value)) return { tool: undefined, unreadable: 'no es un objeto JSON', lines };
  return { tool: value, unreadable: undefined, lines };
}

/**
 * The tools of a submission that wraps definitions as tools/list does: `{"tools": [...]}`, the whole
 * JSON-RPC response around it, or a bare array; undefined for anything else (a definition itself).
 */
function listedTools(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value) || 'name' in value) return undefined;
  const result = isObject(value.result) ? value.result : value;
  return Array.isArray(result.tools) ? result.tools : undefined;
}

/** The first line that mentions `"key"`, so a finding points where the student can fix it. */
function near(submission: ToolSubmission, key: string, message: string): Finding {
  const index = submission.lines.findIndex((line) => line.includes(`"${key}"`));
  return index === -1
    ? { line: null, message }
    : { line: index + 1, message, excerpt: excerpt(submission.lines[index]!) };
}

/** Applies only to a readable definition: an unreadable one fails the first rule alone. */
function readable(check: (tool: Record<string, unknown>, s: ToolSubmission) => Finding[]) {
  return (s: ToolSubmission) => (s.tool ? check(s.tool, s) : ('no_aplica' as const));
}

const RULES: RuleDefinition<ToolSubmission>[] = [
  {
    id: 'definicion_legible',
    title: 'Definición legible',
    description:
      'La entrega es un objeto JSON con la definición de una herramienta, tal como sale en tools/list (una ' +
      'sola: de una lista {"tools": [...]} con una herramienta se corrige esa).',
    check: (s) => (s.unreadable ? [{ line: null, message: `La entrega ${s.unreadable}.` }] : []),
  },
  {
    id: 'nombre',
    title: 'Nombre en snake_case',
    description: 'name: minúsculas, dígitos y guiones bajos, empieza por letra, hasta 64 caracteres.',
    check: readable((tool, s) =>
      typeof tool.name === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(tool.name)
        ? []
        : [near(s, 'name', `El nombre ${quote(tool.name)} no es snake_case (p. ej. proximos_pases).`)],
    ),
  },
  {
    id: 'titulo_y_descripcion',
    title: 'Título y descripción que dice cuándo usarla',
    description:
      'title no vacío para las personas; description de al menos 40 caracteres que diga al modelo cuándo ' +
      'usar la herramienta («Úsala cuando…»).',
    check: readable((tool, s) => {
      const findings: Finding[] = [];
      if (typeof tool.title !== 'string' || tool.title.trim() === '') {
        findings.push(near(s, 'title', 'Falta title: el nombre legible que ven las personas en el cliente.'));
      }
      const description = typeof tool.description === 'string' ? tool.description : '';
      if (description.trim().length < 40 || !WHEN_TO_USE.test(description)) {
        findings.push(
          near(
            s,
            'description',
            `La descripción (${description.trim().length} caracteres) debe tener al menos 40 y decir cuándo ` +
              'usar la herramienta («Úsala cuando…»): es lo que el modelo lee para elegirla.',
          ),
        );
      }
      return findings;
    }),
  },
  {
    id: 'anotaciones',
    title: 'Las cuatro anotaciones',
    description:
      'annotations declara readOnlyHint, destructiveHint, idempotentHint y openWorldHint como booleanos, y ' +
      'sin contradicciones (una herramienta de solo lectura no es destructiva).',
    check: readable((tool, s) => {
      const annotations = isObject(tool.annotations) ? tool.annotations : {};
      const missing = ANNOTATIONS.filter((hint) => typeof annotations[hint] !== 'boolean');
      const findings: Finding[] = [];
      if (missing.length > 0) {
        findings.push(near(s, 'annotations', `Faltan anotaciones booleanas: ${missing.join(', ')}.`));
      }
      if (annotations.readOnlyHint === true && annotations.destructiveHint === true) {
        findings.push(
          near(s, 'destructiveHint', 'readOnlyHint y destructiveHint son true a la vez: se contradicen.'),
        );
      }
      return findings;
    }),
  },
  {
    id: 'esquema_ajustado',
    title: 'inputSchema tan ajustado como el dominio',
    description:
      'inputSchema es un objeto con additionalProperties: false y required; cada número tiene minimum y ' +
      'maximum, cada texto maxLength, enum o pattern, cada lista maxItems.',
    check: readable((tool, s) => {
      const schema = tool.inputSchema;
      if (!isObject(schema) || schema.type !== 'object') {
        return [near(s, 'inputSchema', 'inputSchema debe ser un esquema JSON con "type": "object".')];
      }
      const findings: Finding[] = [];
      if (schema.additionalProperties !== false) {
        findings.push(
          near(
            s,
            'inputSchema',
            'Falta "additionalProperties": false: un argumento mal escrito pasaría sin aviso.',
          ),
        );
      }
      const properties = isObject(schema.properties) ? schema.properties : {};
      if (Object.keys(properties).length > 0 && !Array.isArray(schema.required)) {
        findings.push(near(s, 'inputSchema', 'Falta "required": di qué argumentos son obligatorios.'));
      }
      for (const [name, property] of Object.entries(properties)) {
        const loose = looseness(property);
        if (loose) findings.push(near(s, name, `El argumento '${name}' ${loose}.`));
      }
      return findings;
    }),
  },
  {
    id: 'esquema_de_salida',
    title: 'outputSchema de objeto',
    description:
      'Si la herramienta devuelve datos, outputSchema es un esquema con "type": "object" (y entonces la ' +
      'respuesta lleva structuredContent además del texto).',
    check: (s) => {
      if (!s.tool || s.tool.outputSchema === undefined) return 'no_aplica';
      const schema = s.tool.outputSchema;
      return isObject(schema) && schema.type === 'object'
        ? []
        : [near(s, 'outputSchema', 'outputSchema debe ser un esquema JSON con "type": "object".')];
    },
  },
];

/** What is too loose about one property's schema, or undefined when it is tight enough. */
function looseness(property: unknown): string | undefined {
  if (!isObject(property)) return 'no tiene un esquema';
  if (Array.isArray(property.enum) || 'const' in property) return undefined;
  switch (property.type) {
    case 'integer':
    case 'number':
      return typeof property.minimum === 'number' && typeof property.maximum === 'number'
        ? undefined
        : 'es numérico sin minimum y maximum (p. ej. horas: 1–72)';
    case 'string':
      return ['maxLength', 'pattern', 'format'].some((k) => k in property)
        ? undefined
        : 'es un texto sin maxLength, pattern, format ni enum';
    case 'array':
      return typeof property.maxItems === 'number' ? undefined : 'es una lista sin maxItems';
    case 'boolean':
    case 'object':
      return undefined;
    default:
      return 'no declara su tipo';
  }
}

const STATEMENT = `# Laboratorio mcp-esquemas: una herramienta que el modelo sabe usar

El modelo elige y llama a una herramienta solo por lo que dice su definición en \`tools/list\`. En este
laboratorio diseñas una herramienta y entregas su definición, que el corrector revisa con las reglas de
DESIGN.md §3 regla 7.

## Qué entregar

Un objeto JSON (máximo 64 KiB) con la definición, tal como la devolvería \`tools/list\`:

\`\`\`json
{
  "name": "proximos_pases",
  "title": "Próximos pases",
  "description": "Ventanas de visibilidad futuras desde una estación. Úsala cuando necesites planificar un contacto.",
  "inputSchema": {
    "type": "object",
    "properties": {
      "norad_id": { "type": "integer", "minimum": 1, "maximum": 339999 },
      "estacion": { "type": "string", "enum": ["orbiteye-mx", "orbiteye-cl", "orbiteye-es"] },
      "horas": { "type": "integer", "minimum": 1, "maximum": 72 }
    },
    "required": ["norad_id", "estacion"],
    "additionalProperties": false
  },
  "annotations": { "readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false }
}
\`\`\`

## Reglas que se comprueban

| regla | qué exige |
|---|---|
| \`definicion_legible\` | un objeto JSON con una sola definición (no la lista \`{"tools": [...]}\` de tools/list) |
| \`nombre\` | snake_case, hasta 64 caracteres |
| \`titulo_y_descripcion\` | \`title\` no vacío; \`description\` de 40+ caracteres que dice cuándo usarla |
| \`anotaciones\` | las cuatro anotaciones, booleanas y coherentes |
| \`esquema_ajustado\` | \`additionalProperties: false\`, \`required\`, números con \`minimum\`/\`maximum\`, textos con \`maxLength\`/\`pattern\`/\`format\`/\`enum\`, listas con \`maxItems\` |
| \`esquema_de_salida\` | si hay \`outputSchema\`, es de tipo objeto |
`;

export const toolSchemaLab: LabDefinition<ToolSubmission> = {
  id: 'mcp-esquemas',
  title: 'Una herramienta que el modelo sabe usar',
  summary:
    'Entrega la definición JSON de una herramienta MCP; el corrector comprueba nombre, título, descripción, ' +
    'anotaciones y que el inputSchema sea tan ajustado como el dominio.',
  format: 'definicion-de-herramienta',
  statement: STATEMENT,
  hints: [
    'Copia la definición de tools/list de un servidor real y mejórala: es más fácil que empezar de cero.',
    'La descripción es para el modelo: di cuándo usar la herramienta, no cómo está implementada.',
    'Cada número con su rango, cada texto con su forma: si el dominio tiene un límite (72 horas), el esquema también.',
    'additionalProperties: false convierte un argumento mal escrito en un error claro en vez de un valor ignorado.',
  ],
  prepare: read,
  rules: RULES,
};
