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
    if (!config.apiUrl) {
      const { dataDirUsable } = await import('@code-cluster/systems/storage');
      if (!dataDirUsable((line) => logger.error(line))) process.exit(2);
    }
    // The embedded lab suite (SQLite under CODE_CLUSTER_DATA_DIR) opens on first use, not at start-up.
    const system = await connectSystem(config, {
      name: 'lab suite',
      logger,
      load: async () =>
        (await import('@code-cluster/systems/lab')).createLabSystem({
          gradingBudgetMs: config.gradingBudgetMs,
          academyApiUrl: config.academyApiUrl,
          academyApiToken: config.academyApiToken,
          onError: (error) => logger.error('lab system error', { error }),
        }),
    });
    return {
      definition: labServer,
      deps: { lab: new LabClient(system.transport), pollIntervalMs: config.pollIntervalMs },
      close: system.close,
    };
  },
};

void runServer(app);
