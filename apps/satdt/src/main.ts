import { runStdioServer, type ServerApp } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { SatdtClient } from '@code-cluster/shared/satdt';
import { z } from 'zod';
import type { SatdtDeps } from './deps.js';
import { satdtServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  apiUrl: {
    flag: 'api-url',
    env: 'SATDT_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'base URL of a remote satdt system; unset: the embedded reference twin runs in process',
  },
  apiToken: {
    flag: 'api-token',
    env: 'SATDT_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for the remote satdt system',
  },
};

const app: ServerApp<typeof options, SatdtDeps> = {
  name: 'satdt-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE satellite digital twin (catalog, SGP4 passes, position, telemetry)',
  options,
  async start(config, logger) {
    const transport = config.apiUrl
      ? (await import('@code-cluster/shared/http')).httpTransport({
          baseUrl: config.apiUrl,
          token: config.apiToken,
        })
      : // The embedded twin (SGP4, catalog) loads on the first call, not at start-up.
        inProcessTransport(
          async () => (await import('@code-cluster/systems/satdt')).createSatdtSystem().handler,
        );
    logger.info(config.apiUrl ? 'using remote satdt system' : 'using embedded satdt twin', {
      url: config.apiUrl,
    });
    const satdt = new SatdtClient(transport);
    return { definition: satdtServer, deps: { satdt }, close: () => satdt.close() };
  },
};

void runStdioServer(app);
