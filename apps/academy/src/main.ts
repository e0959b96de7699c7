import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { withoutPassword } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import type { AcademyDeps } from './deps.js';
import { academyServer, identity } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, AcademyDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE Academy platform (courses, progress, quizzes, read-only analytics SQL)',
  options,
  async start(config, logger) {
    const embedded = !config.apiUrl;
    // On PostgreSQL consulta_sql needs its own SELECT-only credentials: without them, a setting error.
    if (embedded && config.databaseUrl && !config.analyticsDatabaseUrl) {
      process.stderr.write(
        `${logger.name}: ACADEMY_ANALYTICS_DATABASE_URL is not set: with ACADEMY_DATABASE_URL ` +
          `${withoutPassword(config.databaseUrl)}, consulta_sql needs separate SELECT-only credentials ` +
          '(code-systems migrate academy creates that role)\n',
      );
      process.exit(2);
    }
    const system = await connectSystem(config, {
      name: 'academy system',
      logger,
      dataDirUsable: async () =>
        (await import('@code-cluster/systems/storage')).dataDirUsable((line) => logger.error(line)),
      engine: { variable: 'ACADEMY_DATABASE_URL', url: config.databaseUrl, what: 'PostgreSQL' },
      load: async () =>
        (await import('@code-cluster/systems/academy'))
          .openAcademySystem({
            databaseUrl: config.databaseUrl,
            analyticsUrl: config.analyticsDatabaseUrl,
            onError: (error) => logger.error('academy system error', { error }),
          })
          .catch((error: unknown) => {
            // The analytics role's problem names its own variable (one line, exit 2), not the store's URL.
            if (error instanceof Error && error.name === 'AnalyticsSettingError') {
              process.stderr.write(`${logger.name}: ${error.message}\n`);
              process.exit(2);
            }
            throw error;
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
