import { defineTool } from '@code-cluster/mcp-kit';
import { MAX_WAIT_HOURS } from '@code-cluster/shared/roverdt';
import { z } from 'zod';
import type { RoverdtToolContext } from '../deps.js';
import { describeRover, rover, roverIdArg, roverSchema } from '../format.js';

export const esperar = defineTool({
  name: 'esperar',
  title: 'Esperar a que carguen los paneles',
  toolset: 'rutas',
  description:
    'Deja el rover aparcado unas horas de su reloj simulado: de día los paneles solares cargan la batería y ' +
    'de noche el rover consume un poco en reposo. Úsala cuando planificar_ruta o ejecutar_ruta se detengan ' +
    `por energía (dicen cuántas horas esperar) o para esperar a que sea de día. De 1 a ${MAX_WAIT_HOURS} h ` +
    'por llamada; un sol dura 24 h 39 min. Devuelve la energía ganada.',
  input: z.strictObject({
    rover_id: roverIdArg,
    horas: z
      .int()
      .min(1)
      .max(MAX_WAIT_HOURS)
      .describe(`Horas del reloj del rover que espera aparcado, de 1 a ${MAX_WAIT_HOURS}`),
  }),
  output: z.object({
    rover: roverSchema,
    horas: z.int(),
    desde: z.string().describe('Reloj del rover al empezar a esperar (ISO-8601 UTC)'),
    hasta: z.string().describe('Reloj del rover al terminar (ISO-8601 UTC)'),
    solar_wh: z.number().describe('Energía que los paneles guardaron en la batería, Wh'),
    consumo_wh: z.number().describe('Lo que el rover consumió aparcado (aviónica y calefactores), Wh'),
    ganancia_wh: z.number().describe('Cambio neto de la batería, Wh (negativo si fue de noche)'),
    bateria_antes_pct: z.number(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ rover_id, horas }, { deps, signal }: RoverdtToolContext) {
    const result = await deps.roverdt.wait(rover_id, horas, signal);
    const data = {
      rover: rover(result.rover),
      horas: result.hours,
      desde: result.from,
      hasta: result.to,
      solar_wh: result.solar_wh,
      consumo_wh: result.load_wh,
      ganancia_wh: result.gained_wh,
      bateria_antes_pct: result.battery_before_pct,
    };
    const sign = data.ganancia_wh >= 0 ? '+' : '';
    const text =
      `${rover_id} esperó ${horas} h (reloj de ${data.desde} a ${data.hasta}): los paneles dieron ` +
      `${data.solar_wh} Wh y consumió ${data.consumo_wh} Wh en reposo, ${sign}${data.ganancia_wh} Wh netos; ` +
      `batería del ${data.bateria_antes_pct} % al ${data.rover.bateria_pct} %.\n${describeRover(data.rover)}`;
    return { text, data };
  },
});
