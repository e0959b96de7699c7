import { DomainError, defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { mantenimiento, mantenimientoIdArg, mantenimientoSchema } from '../format.js';

/** Operator only: registered only when the server runs with `--scope operador`, refused otherwise. */
export const cancelarMantenimiento = defineTool({
  name: 'cancelar_mantenimiento',
  title: 'Cancelar un mantenimiento (operador)',
  toolset: 'mantenimiento',
  description:
    'Herramienta de operador: cancela una ventana de mantenimiento en curso o futura, y la estación vuelve ' +
    'a admitir contactos en ella (salvo que otra ventana la cubra). Úsala solo cuando un operador dé por ' +
    'terminado o anulado un mantenimiento. El mantenimiento_id lo da listar_mantenimientos.',
  input: z.strictObject({ mantenimiento_id: mantenimientoIdArg }),
  output: mantenimientoSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler({ mantenimiento_id }, { deps, signal }: GroundstationToolContext) {
    if (deps.scope !== 'operador') {
      // Second wall: the tool is not registered outside operator scope, and refuses if reached anyway.
      throw new DomainError(
        'cancelar_mantenimiento es una herramienta de operador y este servidor funciona con alcance ' +
          "'consulta'. Pide a un operador que cancele el mantenimiento.",
      );
    }
    const data = mantenimiento(await deps.groundstation.cancelMaintenance(mantenimiento_id, signal));
    const text =
      `Mantenimiento ${data.mantenimiento_id} de ${data.estacion} cancelado (era del ${data.inicio} al ` +
      `${data.fin}: ${data.motivo}). listar_mantenimientos muestra las ventanas que siguen en vigor.`;
    return { text, data };
  },
});
