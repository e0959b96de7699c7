import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { RoverdtClient } from '@code-cluster/shared/roverdt';
import type { RoverdtDeps } from './deps.js';
import { identity, roverdtServer } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, RoverdtDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE rover digital twin (terrain, route planning, energy, instruments)',
  options,
  async start(config, logger) {
    // The embedded twin (terrain generation, SQLite under CODE_CLUSTER_DATA_DIR) loads on first use; on
    // PostgreSQL (ROVERDT_DATABASE_URL) it opens at start, and a URL that does not answer stops the server.
    const system = await connectSystem(config, {
      name: 'rover twin',
      logger,
      dataDirUsable: async () =>
        (await import('@code-cluster/systems/storage')).dataDirUsable((line) => logger.error(line)),
      engine: { variable: 'ROVERDT_DATABASE_URL', url: config.databaseUrl, what: 'PostgreSQL' },
      load: async () =>
        (await import('@code-cluster/systems/roverdt')).openRoverdtSystem({
          databaseUrl: config.databaseUrl,
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
