import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define.js';
import { convertToolSchemas, toJsonSchema } from '../src/tools/json-schema.js';
import { describePattern } from '../src/tools/pattern-words.js';
import { describeArgumentIssues, formatArgumentIssues } from '../src/tools/validation.js';

const schema = z.strictObject({
  horas: z.int().min(1).max(72).optional(),
  estacion: z.string().min(3).max(20),
  modo: z.enum(['a', 'b']).optional(),
  desde: z.iso.datetime({ offset: false }).optional(),
  lista: z.array(z.string()).max(2).optional(),
  peso: z.number().positive().optional(),
  topico: z
    .string()
    .regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/)
    .optional(),
  contacto_id: z
    .string()
    .regex(/^ct-[0-9a-f]{12}$/)
    .optional(),
  datos: z.record(z.string(), z.unknown()).optional(),
  respuestas: z.record(z.string().regex(/^p[0-9]{1,2}$/), z.string().regex(/^[a-f]$/)).optional(),
  valor: z.union([z.string(), z.int()]).optional(),
  medida: z.union([z.string(), z.int()], { error: 'debe ser un texto o un entero de la escala' }).optional(),
  fijo: z.literal('x').optional(),
});

const messages = (args: unknown) => {
  const parsed = schema.safeParse(args, { reportInput: true });
  if (parsed.success) throw new Error('expected a violation');
  return describeArgumentIssues(parsed.error.issues).map((issue) => issue.message);
};

describe('argument messages name the argument, the bound and the value', () => {
  it.each([
    [{ estacion: 'orbiteye-mx', horas: 200 }, "'horas' debe ser ≤ 72; recibido: 200"],
    [{ estacion: 'orbiteye-mx', horas: 0 }, "'horas' debe ser ≥ 1; recibido: 0"],
    [{ estacion: 'orbiteye-mx', horas: 1.5 }, "'horas' debe ser un número entero; recibido: 1.5"],
    [{ estacion: 'mx' }, '\'estacion\' debe tener al menos 3 caracteres; recibido: "mx"'],
    [{}, "'estacion' es obligatorio; recibido: nada"],
    [{ estacion: 'orbiteye-mx', modo: 'c' }, '\'modo\' debe ser uno de: "a", "b"; recibido: "c"'],
    [
      { estacion: 'orbiteye-mx', desde: 'ayer' },
      '\'desde\' debe ser una fecha ISO-8601 en UTC, p. ej. 2026-11-30T03:14:00Z; recibido: "ayer"',
    ],
    [
      { estacion: 'orbiteye-mx', lista: ['a', 'b', 'c'] },
      '\'lista\' debe tener como máximo 2 elementos; recibido: ["a","b","c"]',
    ],
    [{ estacion: 'orbiteye-mx', peso: 0 }, "'peso' debe ser > 0; recibido: 0"],
    [{ estacion: 'orbiteye-mx', extra: 1 }, "argumento desconocido 'extra'"],
    [
      { estacion: 'orbiteye-mx', topico: 'Alertas' },
      '\'topico\' debe tener el formato: palabras de minúsculas y dígitos separadas por un punto o un guion; recibido: "Alertas"',
    ],
    [
      { estacion: 'orbiteye-mx', contacto_id: 'ct-1' },
      "'contacto_id' debe tener el formato: 'ct-' y luego 12 dígitos hexadecimales (0-9, a-f); recibido: \"ct-1\"",
    ],
    [{ estacion: 'orbiteye-mx', datos: 'x' }, '\'datos\' debe ser un objeto; recibido: "x"'],
    [
      { estacion: 'orbiteye-mx', respuestas: { P1: 'a' } },
      "'respuestas' tiene una clave que no vale: debe tener el formato: 'p' y luego de 1 a 2 dígitos; recibido: \"P1\"",
    ],
    [
      { estacion: 'orbiteye-mx', respuestas: { p1: 'z' } },
      '\'respuestas.p1\' debe tener el formato: una letra de la a a la f; recibido: "z"',
    ],
    [
      { estacion: 'orbiteye-mx', valor: true },
      "'valor' no tiene ninguna de las formas que admite el esquema; recibido: true",
    ],
    [
      { estacion: 'orbiteye-mx', medida: true },
      "'medida' debe ser un texto o un entero de la escala; recibido: true",
    ],
    [{ estacion: 'orbiteye-mx', fijo: 'y' }, '\'fijo\' debe ser "x"; recibido: "y"'],
  ])('%j → %s', (args, expected) => {
    expect(messages(args)).toContain(expected);
  });

  it('shortens a huge value instead of echoing it whole', () => {
    const [message] = messages({ estacion: 'x'.repeat(500) });
    expect(message!.length).toBeLessThan(160);
    expect(message).toContain('…');
  });

  it('formats one sentence for the model', () => {
    const parsed = schema.safeParse({ estacion: 'orbiteye-mx', horas: 200 }, { reportInput: true });
    expect(formatArgumentIssues('proximos_pases', describeArgumentIssues(parsed.error!.issues))).toBe(
      "Argumentos inválidos para 'proximos_pases': 'horas' debe ser ≤ 72; recibido: 200.",
    );
  });
});

describe('patterns in words', () => {
  it.each([
    [/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'palabras de minúsculas y dígitos separadas por un guion'],
    [/^quiz-[a-z0-9-]+$/, "'quiz-' y luego minúsculas, dígitos o guiones"],
    [/^[a-z]{2}-[a-z]{1,3}\d{1,2}$/, "2 minúsculas, '-', de 1 a 3 minúsculas y luego de 1 a 2 dígitos"],
    [
      /^[a-z0-9][a-z0-9._-]*$/,
      'una minúscula o un dígito y luego cualquier cantidad de minúsculas, dígitos, puntos, guiones bajos o guiones',
    ],
    [/^[A-Za-z0-9._@-]+$/, "letras sin tilde, dígitos, puntos, guiones bajos, '@' o guiones"],
    [/^v\.?[0-9]{2,}$/, "'v', opcionalmente '.' y luego al menos 2 dígitos"],
  ])('%s → %s', (pattern, words) => {
    expect(describePattern(pattern)).toBe(words);
    // zod reports the pattern as a string with its delimiters.
    expect(describePattern(String(pattern))).toBe(words);
  });

  it('declines what it cannot say in words instead of guessing', () => {
    for (const pattern of [/abc/, /^(a|b)$/, /^[^a]+$/, /^a.b$/, /^\w+$/, /^a+?$/, /^ab$/i]) {
      expect(describePattern(pattern)).toBeUndefined();
    }
    const parsed = z
      .strictObject({ x: z.string().regex(/^\w+$/) })
      .safeParse({ x: '!' }, { reportInput: true });
    expect(describeArgumentIssues(parsed.error!.issues)[0]!.message).toBe(
      '\'x\' no tiene el formato que pide su descripción; recibido: "!"',
    );
  });
});

describe('toJsonSchema', () => {
  it('keeps what a model needs and drops zod noise', () => {
    const json = toJsonSchema(
      z.strictObject({ n: z.int(), h: z.int().min(1).max(72), d: z.iso.datetime({ offset: false }) }),
      'input',
    );
    expect(json).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer' },
        h: { type: 'integer', minimum: 1, maximum: 72 },
        d: { type: 'string', format: 'date-time' },
      },
      required: ['n', 'h', 'd'],
      additionalProperties: false,
    });
  });
});

describe('convertToolSchemas (what the build of a bin converts once)', () => {
  const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  const tool = (name: string, input: z.ZodObject, output?: z.ZodObject) =>
    defineTool({
      name,
      title: name,
      toolset: 'pruebas',
      description: 'Herramienta de prueba para el test.',
      input,
      ...(output ? { output } : {}),
      annotations: read,
      handler: async () => ({ text: '', data: {} }) as never,
    });

  it('keys each tool by name with the schemas toJsonSchema gives, output only where declared', () => {
    const input = z.strictObject({ n: z.int().max(9) });
    const output = z.object({ ok: z.boolean() });
    expect(convertToolSchemas([tool('con_salida', input, output), tool('sin_salida', input)])).toEqual({
      con_salida: { input: toJsonSchema(input, 'input'), output: toJsonSchema(output, 'output') },
      sin_salida: { input: toJsonSchema(input, 'input') },
    });
  });

  it('refuses two different tools of one name, and takes the same tool twice', () => {
    const one = tool('eco', z.strictObject({ a: z.string() }));
    expect(Object.keys(convertToolSchemas([one, one]))).toEqual(['eco']);
    expect(() => convertToolSchemas([one, tool('eco', z.strictObject({ b: z.string() }))])).toThrow(
      "two different tools are named 'eco'",
    );
  });
});
