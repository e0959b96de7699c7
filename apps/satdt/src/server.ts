import { createKitServer, type KitServer, type Logger, type ServerDefinition } from '@code-cluster/mcp-kit';
import type { SatdtDeps } from './deps.js';
import { registerPrompts } from './prompts.js';
import { elementSubscriptions, registerResources } from './resources.js';
import { tools } from './tools/index.js';
import { VERSION } from './version.js';

export const satdtServer: ServerDefinition<SatdtDeps> = {
  name: 'satdt-mcp',
  title: 'Gemelo digital satelital (CO.DE)',
  version: VERSION,
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

export interface CreateServerOptions {
  logger: Logger;
  readOnly?: boolean;
  toolTimeoutMs?: number;
}

/** Builds satdt-mcp around its dependencies; no side effects until `connect`. */
export function createServer(deps: SatdtDeps, options: CreateServerOptions): KitServer {
  return createKitServer(satdtServer, { deps, ...options });
}
