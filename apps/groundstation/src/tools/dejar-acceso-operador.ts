import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { accesoSchema, DROP_TOOL, OPERATOR_TOOL_NAMES, REQUEST_TOOL } from './access.js';

/** Offered only to a session that solicitar_acceso_operador elevated. */
export const dejarAccesoOperador = defineTool({
  name: DROP_TOOL,
  title: 'Dejar el acceso de operador',
  toolset: 'mantenimiento',
  description:
    'Retira el acceso de operador que solicitar_acceso_operador dio a esta sesión: desaparecen ' +
    'programar_mantenimiento y cancelar_mantenimiento. Úsala cuando el operador haya terminado.',
  input: z.strictObject({}),
  output: accesoSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { deps, tools }: GroundstationToolContext) {
    if (deps.scope !== 'operador') {
      return {
        text: 'Esta sesión no tiene acceso de operador: nada que retirar.',
        data: { acceso: deps.scope, cambiado: false, herramientas: [] },
      };
    }
    deps.scope = 'consulta';
    tools.swap([REQUEST_TOOL], [...OPERATOR_TOOL_NAMES, DROP_TOOL]);
    return {
      text: 'Acceso de operador retirado: esta sesión vuelve al alcance de consulta.',
      data: { acceso: deps.scope, cambiado: true, herramientas: [...OPERATOR_TOOL_NAMES] },
    };
  },
});
