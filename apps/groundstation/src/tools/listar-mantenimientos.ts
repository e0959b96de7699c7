import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { describeMantenimiento, estacionArg, mantenimiento, mantenimientoSchema } from '../format.js';

export const listarMantenimientos = defineTool({
  name: 'listar_mantenimientos',
  title: 'Ventanas de mantenimiento de una estación',
  toolset: 'mantenimiento',
  description:
    'Lista las ventanas de mantenimiento en vigor o futuras de una estación (las de referencia y las de ' +
    'operador, sin las canceladas), con su identificador, inicio, fin y motivo. Úsala para saber cuándo ' +
    'podrá atender contactos una estación, o para obtener el mantenimiento_id que pide cancelar_mantenimiento.',
  input: z.strictObject({ estacion: estacionArg }),
  output: z.object({
    estacion: z.string(),
    mantenimientos: z.array(mantenimientoSchema).describe('Por inicio; pueden solaparse: se suman'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ estacion }, { deps, signal }: GroundstationToolContext) {
    const list = await deps.groundstation.listMaintenance(estacion, signal);
    const data = { estacion: list.station, mantenimientos: list.maintenance.map(mantenimiento) };
    const text =
      data.mantenimientos.length === 0
        ? `${data.estacion} no tiene mantenimientos en vigor ni previstos.`
        : `${data.estacion}: ${data.mantenimientos.length} ${data.mantenimientos.length === 1 ? 'mantenimiento' : 'mantenimientos'} en vigor o previstos:\n` +
          data.mantenimientos
            .map((m) => `- ${m.mantenimiento_id} (${m.origen}): ${describeMantenimiento(m)}`)
            .join('\n');
    return { text, data };
  },
});
