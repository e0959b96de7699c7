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
    // A data dir that cannot be written fails every call of the embedded system: say so once and stop.
    if (!config.apiUrl && !config.natsUrl) {
      const { dataDirUsable } = await import('@code-cluster/systems/storage');
      if (!dataDirUsable((line) => logger.error(line))) process.exit(2);
    }
    const onError = (error: unknown) => logger.error('hub system error', { error });
    // On NATS the log is opened at start: a URL that does not answer is a setting error, said once.
    const onNats =
      !config.apiUrl && config.natsUrl
        ? await (await import('@code-cluster/systems/hub'))
            .openHubSystem({ natsUrl: config.natsUrl, natsStream: config.natsStream, onError })
            .catch((error: unknown) => {
              const reason = error instanceof Error ? error.message : String(error);
              process.stderr.write(
                `hub-mcp: HUB_NATS_URL ${config.natsUrl}: NATS JetStream unusable (${reason})\n`,
              );
              process.exit(2);
            })
        : undefined;
    // The embedded hub on SQLite (under CODE_CLUSTER_DATA_DIR) opens on first use, not at start-up.
    const system = await connectSystem(config, {
      name: 'hub',
      logger,
      load: async () => onNats ?? (await import('@code-cluster/systems/hub')).createHubSystem({ onError }),
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
