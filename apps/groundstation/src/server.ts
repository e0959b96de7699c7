import type { ServerDefinition } from '@code-cluster/mcp-kit';
import pkg from '../package.json' with { type: 'json' };
import type { GroundstationDeps, Scope } from './deps.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { operatorTools, toolsFor } from './tools/index.js';

/** The server's name and version, stated once: its definition and its bin (`--version`) read them. */
export const identity = { name: 'groundstation-mcp', version: pkg.version } as const;

/**
 * The server as data; its tools depend on the scope (operator tools only in `operador`). `operatorSessions`:
 * some HTTP tokens are operators', so the operator tools exist and each session keeps them only if its
 * token's scope (else the process's) is `operador`.
 */
export function groundstationServer(
  scope: Scope,
  operatorSessions = scope === 'operador',
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
        : ''),
    tools: toolsFor(operatorSessions ? 'operador' : scope),
    sessionDeps: (deps, session) => {
      const own = (session.principal?.scope as Scope | undefined) ?? deps.scope;
      if (own !== 'operador')
        session.tools.setEnabled(
          operatorTools.map((t) => t.name),
          false,
        );
      return own === deps.scope ? deps : { ...deps, scope: own };
    },
    resources: registerResources,
    prompts: registerPrompts,
  };
}
