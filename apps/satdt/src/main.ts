import { connectSystem, runServer, type ServerApp, systemOptions } from '@code-cluster/mcp-kit';
import { SatdtClient } from '@code-cluster/shared/satdt';
import { z } from 'zod';
import type { ElementChangeEvent, ElementChanges, SatdtDeps } from './deps.js';
import { satdtServer } from './server.js';
import { VERSION } from './version.js';

const httpUrl = z.url({ protocol: /^https?$/ });

const options = {
  ...systemOptions('SATDT', 'satdt system'),
  elementsFile: {
    flag: 'elements-file',
    env: 'SATDT_ELEMENTS_FILE',
    schema: z.string().min(1).optional(),
    description: 'embedded twin: a file of current element sets (TLE, 2- or 3-line, or OMM JSON)',
  },
  elementsUrls: {
    flag: 'elements-url',
    env: 'SATDT_ELEMENTS_URL',
    schema: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((url) => url.trim())
          .filter((url) => url !== ''),
      )
      .pipe(z.array(httpUrl)),
    description:
      'embedded twin: HTTP(S) sources of element sets, comma separated (e.g. CelesTrak GP, FORMAT=json)',
  },
  elementsRefreshH: {
    flag: 'elements-refresh-h',
    env: 'SATDT_ELEMENTS_REFRESH_H',
    schema: z.coerce.number().min(0.25).max(168).default(8),
    description: 'embedded twin: hours between refreshes of the element URLs (0.25–168, default 8)',
  },
};

const app: ServerApp<typeof options, SatdtDeps> = {
  name: 'satdt-mcp',
  version: VERSION,
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
