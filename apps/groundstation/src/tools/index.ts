import type { AnyTool } from '@code-cluster/mcp-kit';
import type { GroundstationDeps, Scope } from '../deps.js';
import { agendaEstacion } from './agenda-estacion.js';
import { agendarContacto } from './agendar-contacto.js';
import { cancelarContacto } from './cancelar-contacto.js';
import { cancelarMantenimiento } from './cancelar-mantenimiento.js';
import { dejarAccesoOperador } from './dejar-acceso-operador.js';
import { estadoEstacion } from './estado-estacion.js';
import { listarEstaciones } from './listar-estaciones.js';
import { listarMantenimientos } from './listar-mantenimientos.js';
import { programarMantenimiento } from './programar-mantenimiento.js';
import { solicitarAccesoOperador } from './solicitar-acceso-operador.js';

/** What every scope offers. */
export const tools: readonly AnyTool<GroundstationDeps>[] = [
  listarEstaciones,
  estadoEstacion,
  agendaEstacion,
  listarMantenimientos,
  agendarContacto,
  cancelarContacto,
];

/** Added in operator scope only. */
export const operatorTools: readonly AnyTool<GroundstationDeps>[] = [
  programarMantenimiento,
  cancelarMantenimiento,
];

/**
 * The tools of a server. In `operador` scope, the operator tools. In `consulta`, solicitar_acceso_operador;
 * and, when some session may hold operator rights (an operator's HTTP token, or an elevation this process
 * can grant), the operator tools and dejar_acceso_operador, which each session turns on or off for itself.
 */
export function toolsFor(scope: Scope, operatorSessions = false): readonly AnyTool<GroundstationDeps>[] {
  if (scope === 'operador') return [...tools, ...operatorTools];
  return [
    ...tools,
    solicitarAccesoOperador,
    ...(operatorSessions ? [...operatorTools, dejarAccesoOperador] : []),
  ];
}
