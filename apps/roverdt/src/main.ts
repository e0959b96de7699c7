import { connectSystem, runServer, type ServerApp, systemOptions } from '@code-cluster/mcp-kit';
import { RoverdtClient } from '@code-cluster/shared/roverdt';
import { z } from 'zod';
import type { RoverdtDeps } from './deps.js';
import { roverdtServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  ...systemOptions('ROVERDT', 'rover twin'),
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
    // The embedded twin (terrain generation, SQLite under CODE_CLUSTER_DATA_DIR) loads on first use.
    const system = await connectSystem(config, {
      name: 'rover twin',
      logger,
      load: async () =>
        (await import('@code-cluster/systems/roverdt')).createRoverdtSystem({
          onError: (error) => logger.error('rover twin error', { error }),
        }),
    });
    return {
      definition: roverdtServer,
      deps: { roverdt: new RoverdtClient(system.transport), legDelayMs: config.legDelayMs },
      close: system.close,
    };
  },
};

void runServer(app);
