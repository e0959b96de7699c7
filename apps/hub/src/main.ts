import { runStdioServer, type ServerApp } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { deferredWatcher, HubClient } from '@code-cluster/shared/hub';
import type { HubSystem } from '@code-cluster/systems/hub';
import { z } from 'zod';
import type { HubDeps } from './deps.js';
import { hubServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  apiUrl: {
    flag: 'api-url',
    env: 'HUB_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      'base URL of a remote hub system (subscriptions then poll it); unset: the embedded SQLite hub runs in process',
  },
  apiToken: {
    flag: 'api-token',
    env: 'HUB_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for the remote hub system',
  },
  pollIntervalMs: {
    flag: 'poll-interval-ms',
    env: 'HUB_POLL_INTERVAL_MS',
    schema: z.coerce.number().int().min(50).max(60_000).default(500),
    description: 'remote mode: how often a subscribed topic is polled, ms (default 500)',
  },
};

const app: ServerApp<typeof options, HubDeps> = {
  name: 'hub-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE event hub (topics, publish, read, subscribe)',
  options,
  async start(config, logger) {
    if (config.apiUrl) {
      const transport = (await import('@code-cluster/shared/http')).httpTransport({
        baseUrl: config.apiUrl,
        token: config.apiToken,
      });
      // REST has no push channel: a subscribed topic is polled (GET /v1/topics/{topic}) while watched.
      const hub = new HubClient(transport, { pollIntervalMs: config.pollIntervalMs });
      logger.info('using remote hub system', { url: config.apiUrl });
      return { definition: hubServer, deps: { hub }, close: () => hub.close() };
    }

    // The embedded hub (SQLite under CODE_CLUSTER_DATA_DIR) opens on first use, not at start-up. Its watcher
    // is in process and also notices publishes of other processes sharing the data dir.
    let system: Promise<HubSystem> | undefined;
    const load = () => {
      system ??= import('@code-cluster/systems/hub').then(({ createHubSystem }) =>
        createHubSystem({ onError: (error) => logger.error('hub system error', { error }) }),
      );
      return system;
    };
    const hub = new HubClient(
      inProcessTransport(async () => (await load()).handler),
      { watcher: deferredWatcher(async () => (await load()).watcher) },
    );
    logger.info('using embedded hub');
    return {
      definition: hubServer,
      deps: { hub },
      close: async () => {
        (await system)?.close();
      },
    };
  },
};

void runStdioServer(app);
