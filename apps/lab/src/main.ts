import { connectSystem, runServer, type ServerApp, systemOptions } from '@code-cluster/mcp-kit';
import { LabClient } from '@code-cluster/shared/lab';
import { z } from 'zod';
import type { LabDeps } from './deps.js';
import { labServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  ...systemOptions('LAB', 'lab system'),
  pollIntervalMs: {
    flag: 'poll-interval-ms',
    env: 'LAB_POLL_INTERVAL_MS',
    schema: z.coerce.number().int().min(20).max(10_000).default(200),
    description: 'how often resultado_entrega checks a running grading, ms (default 200)',
  },
  academyApiUrl: {
    flag: 'academy-api-url',
    env: 'LAB_ACADEMY_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      'embedded lab suite: academy system whose roster checks students (default: the academy of the same data dir)',
  },
  academyApiToken: {
    flag: 'academy-api-token',
    env: 'LAB_ACADEMY_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for that academy system',
  },
  gradingBudgetMs: {
    flag: 'grading-budget-ms',
    env: 'LAB_GRADING_BUDGET_MS',
    schema: z.coerce.number().int().min(100).max(120_000).default(10_000),
    description:
      'embedded lab suite: wall-clock budget of one grading, ms; past it the submission is no_terminada (default 10000)',
  },
};

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
