import { runStdioServer, type ServerApp } from '@code-cluster/mcp-kit';
import { inProcessTransport, type RestTransport } from '@code-cluster/shared';
import { RoverdtClient } from '@code-cluster/shared/roverdt';
import { z } from 'zod';
import type { RoverdtDeps } from './deps.js';
import { roverdtServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  apiUrl: {
    flag: 'api-url',
    env: 'ROVERDT_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'base URL of a remote rover twin system; unset: the embedded twin runs in process',
  },
  apiToken: {
    flag: 'api-token',
    env: 'ROVERDT_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for the remote rover twin system',
  },
  legDelayMs: {
    flag: 'leg-delay-ms',
    env: 'ROVERDT_LEG_DELAY_MS',
    schema: z.coerce.number().int().min(0).max(1_000).default(80),
    description: 'pause before each leg of ejecutar_ruta, ms (default 80): paces progress and cancellation',
  },
};

const app: ServerApp<typeof options, RoverdtDeps> = {
  name: 'roverdt-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE rover digital twin (terrain, route planning, energy, instruments)',
  options,
  async start(config, logger) {
    let closeSystem: (() => void) | undefined;
    let transport: RestTransport;
    if (config.apiUrl) {
      transport = (await import('@code-cluster/shared/http')).httpTransport({
        baseUrl: config.apiUrl,
        token: config.apiToken,
      });
      logger.info('using remote rover twin', { url: config.apiUrl });
    } else {
      // The embedded twin (terrain generation, SQLite under CODE_CLUSTER_DATA_DIR) loads on first use.
      transport = inProcessTransport(async () => {
        const { createRoverdtSystem } = await import('@code-cluster/systems/roverdt');
        const system = createRoverdtSystem({
          onError: (error) => logger.error('rover twin error', { error }),
        });
        closeSystem = () => system.close();
        return system.handler;
      });
      logger.info('using embedded rover twin');
    }
    const roverdt = new RoverdtClient(transport);
    return {
      definition: roverdtServer,
      deps: { roverdt, legDelayMs: config.legDelayMs },
      close: async () => {
        await roverdt.close();
        closeSystem?.();
      },
    };
  },
};

void runStdioServer(app);
