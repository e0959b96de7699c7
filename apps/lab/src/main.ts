import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { LabClient } from '@code-cluster/shared/lab';
import type { LabDeps } from './deps.js';
import { identity, labServer } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, LabDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE lab suite (labs, sessions, submissions, automatic grading)',
  options,
  async start(config, logger) {
    // The embedded lab suite on SQLite (under CODE_CLUSTER_DATA_DIR) opens on first use; on PostgreSQL
    // (LAB_DATABASE_URL) at start, where a URL that cannot be used is one stderr line and exit 2.
    const system = await connectSystem(config, {
      name: 'lab suite',
      logger,
      dataDirUsable: async () =>
        (await import('@code-cluster/systems/storage')).dataDirUsable((line) => logger.error(line)),
      engine: { variable: 'LAB_DATABASE_URL', url: config.databaseUrl, what: 'PostgreSQL' },
      load: async () =>
        (await import('@code-cluster/systems/lab')).openLabSystem({
          databaseUrl: config.databaseUrl,
          gradingBudgetMs: config.gradingBudgetMs,
          academyApiUrl: config.academyApiUrl,
          academyApiToken: config.academyApiToken,
          onError: (error) => logger.error('lab system error', { error }),
        }),
    });
    return {
      definition: labServer,
      deps: { lab: new LabClient(system.transport), pollIntervalMs: config.pollIntervalMs },
      // Awaited by the shutdown: the grading in progress is handed back (a store write) before exit.
      close: system.close,
    };
  },
};

void runServer(app);
