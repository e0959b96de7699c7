import type { AnyTool } from '@code-cluster/mcp-kit';
import type { GroundstationDeps, Scope } from '../deps.js';
import { agendaEstacion } from './agenda-estacion.js';
import { agendarContacto } from './agendar-contacto.js';
import { cancelarContacto } from './cancelar-contacto.js';
import { cancelarMantenimiento } from './cancelar-mantenimiento.js';
import { estadoEstacion } from './estado-estacion.js';
import { listarEstaciones } from './listar-estaciones.js';
import { listarMantenimientos } from './listar-mantenimientos.js';
import { programarMantenimiento } from './programar-mantenimiento.js';

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

export function toolsFor(scope: Scope): readonly AnyTool<GroundstationDeps>[] {
  return scope === 'operador' ? [...tools, ...operatorTools] : tools;
}
