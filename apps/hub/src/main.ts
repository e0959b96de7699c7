import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { deferredWatcher, HubClient } from '@code-cluster/shared/hub';
import type { HubDeps } from './deps.js';
import { hubServer, identity } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, HubDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE event hub (topics, publish, read, subscribe)',
  options,
  async start(config, logger) {
    const onError = (error: unknown) => logger.error('hub system error', { error });
    // On NATS the log is opened at start (a URL that does not answer is a setting error, said once);
    // the embedded hub on SQLite (under CODE_CLUSTER_DATA_DIR) opens on first use, not at start-up.
    const system = await connectSystem(config, {
      name: 'hub',
      logger,
      dataDirUsable: async () =>
        (await import('@code-cluster/systems/storage')).dataDirUsable((line) => logger.error(line)),
      load: async () => {
        const { createHubSystem, openHubSystem } = await import('@code-cluster/systems/hub');
        return config.natsUrl
          ? openHubSystem({ natsUrl: config.natsUrl, natsStream: config.natsStream, onError })
          : createHubSystem({ onError });
      },
      engine: { variable: 'HUB_NATS_URL', url: config.natsUrl, what: 'NATS JetStream' },
    });
    const { embedded } = system;
    const hub = embedded
      ? // In process, the embedded system's watcher also notices publishes of other processes on the data dir.
        new HubClient(system.transport, { watcher: deferredWatcher(async () => (await embedded()).watcher) })
      : // REST has no push channel: a subscribed topic is polled (GET /v1/topics/{topic}) while watched.
        new HubClient(system.transport, { pollIntervalMs: config.pollIntervalMs });
    return { definition: hubServer, deps: { hub }, close: system.close };
  },
};

void runServer(app);
