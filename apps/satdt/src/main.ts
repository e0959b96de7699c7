import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { SatdtClient } from '@code-cluster/shared/satdt';
import type { ElementChangeEvent, ElementChanges, SatdtDeps } from './deps.js';
import { identity, satdtServer } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, SatdtDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE satellite digital twin (catalog, SGP4 passes, position, telemetry)',
  options,
  async start(config, logger) {
    const listeners = new Set<(change: ElementChangeEvent) => void>();
    const elementChanges: ElementChanges = (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    };
    const system = await connectSystem(config, {
      name: 'satellite twin',
      logger,
      load: async () => {
        const twin = (await import('@code-cluster/systems/satdt')).createSatdtSystem({
          elements: {
            file: config.elementsFile,
            urls: config.elementsUrls,
            refreshHours: config.elementsRefreshH,
          },
          log: (level, message, fields) => logger[level](message, fields),
          onError: (error) => logger.error('satdt system error', { error }),
        });
        twin.onElementsChange((change) => {
          for (const listener of listeners) listener(change);
        });
        return twin;
      },
    });
    const { embedded } = system;
    // The element URLs are fetched when the twin loads; load it soon, but after stdio is up.
    if (embedded && config.elementsUrls.length > 0) {
      setTimeout(() => {
        embedded().catch((error: unknown) => logger.error('satdt system failed to load', { error }));
      }, 0).unref();
    }
    return {
      definition: satdtServer,
      // Only the embedded twin can say when its elements change; a remote one has no push channel.
      deps: { satdt: new SatdtClient(system.transport), ...(embedded ? { elementChanges } : {}) },
      close: system.close,
    };
  },
};

void runServer(app);
