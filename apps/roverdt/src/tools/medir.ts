import { defineTool } from '@code-cluster/mcp-kit';
import { INSTRUMENTS } from '@code-cluster/shared/roverdt';
import { z } from 'zod';
import type { RoverdtToolContext } from '../deps.js';
import { roverIdArg } from '../format.js';

export const medir = defineTool({
  name: 'medir',
  title: 'Medir con un instrumento',
  toolset: 'ciencia',
  description:
    'Toma una medida con un instrumento del rover donde está y a su hora simulada: camara (rocas, desnivel, ' +
    'pendiente local y arena blanda a menos de 3 m), espectrometro (composición mineral), termometro ' +
    '(aire y suelo) o sismometro (vibración y sismos). Úsala para estudiar una zona o para mirar si hay ' +
    'arena blanda antes de avanzar. No mueve el rover ni gasta batería; repetirla en el mismo sitio y ' +
    'hora da la misma medida.',
  input: z.strictObject({
    rover_id: roverIdArg,
    instrumento: z.enum(INSTRUMENTS).describe('Instrumento: camara, espectrometro, termometro o sismometro'),
  }),
  output: z.object({
    rover_id: z.string(),
    instrumento: z.enum(INSTRUMENTS),
    instante: z.string().describe('Reloj simulado del rover (ISO-8601 UTC)'),
    x: z.int(),
    y: z.int(),
    lecturas: z.array(z.object({ nombre: z.string(), valor: z.number(), unidad: z.string() })),
    resumen: z.string(),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ rover_id, instrumento }, { deps, signal }: RoverdtToolContext) {
    const m = await deps.roverdt.measure(rover_id, instrumento, signal);
    const data = {
      rover_id: m.rover_id,
      instrumento: m.instrument,
      instante: m.at,
      x: m.x,
      y: m.y,
      lecturas: m.readings.map((r) => ({ nombre: r.name, valor: r.value, unidad: r.unit })),
      resumen: m.summary,
    };
    const readings = data.lecturas.map((r) => `${r.nombre} ${r.valor} ${r.unidad}`).join('; ');
    return { text: `${m.summary}\nLecturas (${m.instrument}, ${m.at}): ${readings}.`, data };
  },
});
