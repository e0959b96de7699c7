import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema } from '../src/tools/json-schema.js';
import { describeArgumentIssues, formatArgumentIssues } from '../src/tools/validation.js';

const schema = z.strictObject({
  horas: z.int().min(1).max(72).optional(),
  estacion: z.string().min(3).max(20),
  modo: z.enum(['a', 'b']).optional(),
  desde: z.iso.datetime({ offset: false }).optional(),
  lista: z.array(z.string()).max(2).optional(),
  peso: z.number().positive().optional(),
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
    [{ estacion: 'orbiteye-mx', horas: 1.5 }, "'horas' debe ser de tipo entero; recibido: 1.5"],
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
