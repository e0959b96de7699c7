import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { LabClient } from '@code-cluster/shared/lab';
import type { LabDeps } from './deps.js';
import { labServer } from './server.js';
import { options } from './settings.js';
import { VERSION } from './version.js';

const app: ServerApp<typeof options, LabDeps> = {
  name: 'lab-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE lab suite (labs, sessions, submissions, automatic grading)',
  options,
  async start(config, logger) {
    if (!config.apiUrl) {
      // The embedded suite keeps everything in SQLite under the data dir, reads included (WAL needs its
      // -shm file beside the database): if the dir cannot be written, every call would fail, so the
      // server says so once and exits (2, like a bad setting). A full disk still serves reads: it stays.
      const { checkDataDir, dataDir } = await import('@code-cluster/systems/storage');
      const check = checkDataDir(dataDir());
      if (!check.ok) logger.error(check.line);
      if (!check.ok && check.problem === 'sin_escritura') process.exit(2);
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
