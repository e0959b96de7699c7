import { runStdioServer, type ServerApp } from '@code-cluster/mcp-kit';
import { inProcessTransport, type RestTransport } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import { z } from 'zod';
import type { AcademyDeps } from './deps.js';
import { academyServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  apiUrl: {
    flag: 'api-url',
    env: 'ACADEMY_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'base URL of a remote academy system; unset: the embedded system runs in process',
  },
  apiToken: {
    flag: 'api-token',
    env: 'ACADEMY_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for the remote academy system',
  },
};

const app: ServerApp<typeof options, AcademyDeps> = {
  name: 'academy-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE Academy platform (courses, progress, quizzes, read-only analytics SQL)',
  options,
  async start(config, logger) {
    let closeSystem: (() => void) | undefined;
    let transport: RestTransport;
    if (config.apiUrl) {
      transport = (await import('@code-cluster/shared/http')).httpTransport({
        baseUrl: config.apiUrl,
        token: config.apiToken,
      });
    } else {
      transport = inProcessTransport(async () => {
        const { createAcademySystem } = await import('@code-cluster/systems/academy');
        const system = createAcademySystem({
          onError: (error) => logger.error('academy system error', { error }),
        });
        closeSystem = () => system.close();
        return system.handler;
      });
    }
    logger.info(config.apiUrl ? 'using remote academy system' : 'using embedded academy system', {
      url: config.apiUrl,
    });
    const academy = new AcademyClient(transport);
    return {
      definition: academyServer,
      deps: { academy },
      close: async () => {
        await academy.close();
        closeSystem?.();
      },
    };
  },
};

void runStdioServer(app);
