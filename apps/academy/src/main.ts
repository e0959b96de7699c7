import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { AcademyClient } from '@code-cluster/shared/academy';
import type { AcademyDeps } from './deps.js';
import { academyServer, identity } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, AcademyDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE Academy platform (courses, progress, quizzes, read-only analytics SQL)',
  options,
  async start(config, logger) {
    // A data dir that cannot be written fails every call of the embedded system: say so once and stop.
    if (!config.apiUrl) {
      const { dataDirUsable } = await import('@code-cluster/systems/storage');
      if (!dataDirUsable((line) => logger.error(line))) process.exit(2);
    }
    const system = await connectSystem(config, {
      name: 'academy system',
      logger,
      load: async () =>
        (await import('@code-cluster/systems/academy')).createAcademySystem({
          onError: (error) => logger.error('academy system error', { error }),
        }),
    });
    return {
      definition: academyServer,
      deps: { academy: new AcademyClient(system.transport) },
      close: system.close,
    };
  },
};

void runServer(app);
