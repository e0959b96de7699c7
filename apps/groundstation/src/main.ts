import { randomBytes } from 'node:crypto';
import { connectSystem, runServer, type ServerApp } from '@code-cluster/mcp-kit';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { type GroundstationDeps, SCOPES } from './deps.js';
import { groundstationServer, identity } from './server.js';
import { options } from './settings.js';

const app: ServerApp<typeof options, GroundstationDeps> = {
  ...identity,
  summary: 'MCP server of the CO.DE ground stations (status, health, contact scheduling, maintenance)',
  options,
  scopes: SCOPES,
  async start(config, logger, principals) {
    // An operator token of MCP_HTTP_TOKENS_FILE needs the operator credential as much as --scope operador;
    // so does a session elevated by solicitar_acceso_operador: by the configured credential typed on a
    // one-time page, or (GROUNDSTATION_ELEVATION=confirm) by a yes/no, embedded only — a remote system
    // still needs the configured credential.
    const canElevate =
      config.scope === 'consulta' &&
      !config.readOnly &&
      (config.operatorToken !== undefined || (config.elevation === 'confirm' && !config.apiUrl));
    const operator =
      config.scope === 'operador' || principals.some((p) => p.scope === 'operador') || canElevate;
    // Remote: the configured credential. Embedded: the system is this process's own, so whenever some
    // session may act as operator it gets a fresh credential only this server knows; otherwise none, and
    // it refuses every operator action.
    const operatorToken = !operator
      ? undefined
      : config.apiUrl
        ? config.operatorToken
        : randomBytes(24).toString('hex');
    if (operator && !operatorToken) {
      logger.warning(
        'operator scope without GROUNDSTATION_OPERATOR_TOKEN: the system will refuse maintenance',
      );
    }
    const system = await connectSystem(config, {
      name: 'ground station system',
      logger,
      dataDirUsable: async () =>
        (await import('@code-cluster/systems/storage')).dataDirUsable((line) => logger.error(line)),
      load: async () =>
        (await import('@code-cluster/systems/groundstation')).openGroundstationSystem({
          operatorToken,
          databaseUrl: config.databaseUrl,
          onError: (error) => logger.error('ground station system error', { error }),
        }),
      // On PostgreSQL the system is opened at start: a URL that cannot be used is a setting error, said once.
      engine: { variable: 'GROUNDSTATION_DATABASE_URL', url: config.databaseUrl, what: 'PostgreSQL' },
    });
    const groundstation = new GroundstationClient(system.transport, operatorToken ? { operatorToken } : {});
    return {
      definition: groundstationServer(config.scope, operator, canElevate),
      deps: {
        groundstation,
        scope: config.scope,
        readOnly: config.readOnly,
        elevation: {
          possible: canElevate,
          credential: config.operatorToken,
          confirm: config.elevation === 'confirm',
        },
      },
      close: system.close,
    };
  },
};

void runServer(app);
