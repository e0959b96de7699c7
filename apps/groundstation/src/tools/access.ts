import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';

/** The tools an elevated session gains, and the one that gives them back. */
export const OPERATOR_TOOL_NAMES = ['programar_mantenimiento', 'cancelar_mantenimiento'] as const;
export const REQUEST_TOOL = 'solicitar_acceso_operador';
export const DROP_TOOL = 'dejar_acceso_operador';

/** What a model can tell a person who needs operator rights and cannot get them in this session. */
export const HOW_TO_OPERATE =
  'Para tener acceso de operador: usa un cliente que admita elicitation por URL con un servidor que tenga ' +
  'GROUNDSTATION_OPERATOR_TOKEN, arranca el servidor con --scope operador, o conéctate por HTTP con un ' +
  'token de operador de MCP_HTTP_TOKENS_FILE.';

export const accesoSchema = z.object({
  acceso: z.enum(['consulta', 'operador']).describe('El alcance de esta sesión después de la llamada'),
  cambiado: z.boolean().describe('Si esta llamada cambió el alcance de la sesión'),
  herramientas: z.array(z.string()).describe('Herramientas que aparecieron o desaparecieron'),
});

/** The session becomes an operator's: its scope, and its tool list (one `tools/list_changed`). */
export function elevate({ deps, tools }: GroundstationToolContext) {
  deps.scope = 'operador';
  tools.swap([...OPERATOR_TOOL_NAMES, DROP_TOOL], [REQUEST_TOOL]);
  return {
    text:
      'Acceso de operador concedido a esta sesión: ya puedes usar programar_mantenimiento y ' +
      'cancelar_mantenimiento (dejar_acceso_operador lo retira).',
    data: { acceso: deps.scope, cambiado: true, herramientas: [...OPERATOR_TOOL_NAMES] },
  };
}
