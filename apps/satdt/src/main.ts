import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { SatdtClient } from '@code-cluster/shared/satdt';
import type { SatdtDeps } from './deps.js';
import { satdtServer } from './server.js';
import { options } from './settings.js';
import { VERSION } from './version.js';

const app: ServerApp<typeof options, SatdtDeps> = {
  name: 'satdt-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE satellite digital twin (catalog, SGP4 passes, position, telemetry)',
  options,
  async start(config, logger) {
    const system = await connectSystem(config, {
      name: 'satellite twin',
      logger,
      load: async () => (await import('@code-cluster/systems/satdt')).createSatdtSystem(),
    });
    return {
      definition: satdtServer,
      deps: { satdt: new SatdtClient(system.transport) },
      close: system.close,
    };
  },
};

void runServer(app);
