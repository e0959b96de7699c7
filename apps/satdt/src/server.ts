import type { ServerDefinition } from '@code-cluster/mcp-kit';
import pkg from '../package.json' with { type: 'json' };
import type { SatdtDeps } from './deps.js';
import { registerPrompts } from './prompts.js';
import { elementSubscriptions, registerResources } from './resources.js';
import { tools } from './tools/index.js';

/** The server's name and version, stated once: its definition and its bin (`--version`) read them. */
export const identity = { name: 'satdt-mcp', version: pkg.version } as const;

export const satdtServer: ServerDefinition<SatdtDeps> = {
  ...identity,
  title: 'Gemelo digital satelital (CO.DE)',
  instructions:
    'Servidor del gemelo digital satelital de CO.DE Academy: catálogo de satélites con TLE reales, ' +
    'propagación SGP4, pases sobre las estaciones orbiteye-mx, orbiteye-cl y orbiteye-es, posición y ' +
    'telemetría simulada. Empieza por satelite_info para identificar un satélite (número NORAD; el catálogo ' +
    'está en el recurso satdt://catalogo), luego proximos_pases para planificar. Horas en ISO-8601 UTC.',
  tools,
  resources: registerResources,
  prompts: registerPrompts,
  subscriptions: elementSubscriptions,
  // A refresh of the element sets can add satellites, i.e. instances of satdt://satelites/{norad_id}.
  changes: { resources: true },
  sessionDeps: (deps, session) => ({ ...deps, resourcesChanged: session.resourcesChanged }),
};
