import type { ServerDefinition } from '@code-cluster/mcp-kit';
import pkg from '../package.json' with { type: 'json' };
import type { GroundstationDeps, Scope } from './deps.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { DROP_TOOL, OPERATOR_TOOL_NAMES, REQUEST_TOOL } from './tools/access.js';
import { toolsFor } from './tools/index.js';

/** The server's name and version, stated once: its definition and its bin (`--version`) read them. */
export const identity = { name: 'groundstation-mcp', version: pkg.version } as const;

/**
 * The server as data; its tools depend on the scope (operator tools only in `operador`). `operatorSessions`:
 * some sessions may hold operator rights — HTTP tokens of operators, or an elevation this process can grant
 * (solicitar_acceso_operador) — so the operator tools exist and each session keeps them only while its own
 * scope (its token's, else the process's, raised by an elevation) is `operador`. `elevation`: whether a
 * session's tool list can change while it lasts.
 */
export function groundstationServer(
  scope: Scope,
  operatorSessions = scope === 'operador',
  elevation = false,
): ServerDefinition<GroundstationDeps> {
  return {
    ...identity,
    title: 'Estaciones terrenas (CO.DE)',
    instructions:
      'Servidor de las estaciones terrenas OrbitEye de CO.DE Academy (orbiteye-mx, orbiteye-cl, ' +
      'orbiteye-es): estado y salud de cada estación, agenda de contactos con satélites y mantenimiento. ' +
      'Para reservar un pase: obtén AOS y LOS con proximos_pases (servidor satdt-mcp), comprueba la estación ' +
      'con estado_estacion y reserva con agendar_contacto. Horas en ISO-8601 UTC.' +
      (scope === 'operador'
        ? ' Alcance de operador: programar_mantenimiento y cancelar_mantenimiento están disponibles.'
        : ' Un operador puede pedir su acceso con solicitar_acceso_operador.'),
    tools: toolsFor(scope, operatorSessions || elevation),
    changes: { tools: elevation },
    sessionDeps: (deps, session) => {
      const own = (session.principal?.scope as Scope | undefined) ?? deps.scope;
      if (own === 'operador') session.tools.setEnabled([REQUEST_TOOL, DROP_TOOL], false);
      else session.tools.setEnabled([...OPERATOR_TOOL_NAMES, DROP_TOOL], false);
      // A session's own copy: an elevation changes this session's scope, no other's.
      return { ...deps, scope: own };
    },
    resources: registerResources,
    prompts: registerPrompts,
  };
}
