import { runStdioServer, type ServerApp } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { LabClient } from '@code-cluster/shared/lab';
import type { LabSystem } from '@code-cluster/systems/lab';
import { z } from 'zod';
import type { LabDeps } from './deps.js';
import { labServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  apiUrl: {
    flag: 'api-url',
    env: 'LAB_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'base URL of a remote lab system; unset: the embedded SQLite lab suite runs in process',
  },
  apiToken: {
    flag: 'api-token',
    env: 'LAB_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for the remote lab system',
  },
  pollIntervalMs: {
    flag: 'poll-interval-ms',
    env: 'LAB_POLL_INTERVAL_MS',
    schema: z.coerce.number().int().min(20).max(10_000).default(200),
    description: 'how often resultado_entrega checks a running grading, ms (default 200)',
  },
};

const app: ServerApp<typeof options, LabDeps> = {
  name: 'lab-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE lab suite (labs, sessions, submissions, automatic grading)',
  options,
  async start(config, logger) {
    if (config.apiUrl) {
      const transport = (await import('@code-cluster/shared/http')).httpTransport({
        baseUrl: config.apiUrl,
        token: config.apiToken,
      });
      const lab = new LabClient(transport);
      logger.info('using remote lab system', { url: config.apiUrl });
      return {
        definition: labServer,
        deps: { lab, pollIntervalMs: config.pollIntervalMs },
        close: () => lab.close(),
      };
    }

    // The embedded lab suite (SQLite under CODE_CLUSTER_DATA_DIR) opens on first use, not at start-up.
    let system: Promise<LabSystem> | undefined;
    const lab = new LabClient(
      inProcessTransport(async () => {
        system ??= import('@code-cluster/systems/lab').then(({ createLabSystem }) =>
          createLabSystem({ onError: (error) => logger.error('lab system error', { error }) }),
        );
        return (await system).handler;
      }),
    );
    logger.info('using embedded lab suite');
    return {
      definition: labServer,
      deps: { lab, pollIntervalMs: config.pollIntervalMs },
      close: async () => {
        (await system)?.close();
      },
    };
  },
};

void runStdioServer(app);
