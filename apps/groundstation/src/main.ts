import { randomBytes } from 'node:crypto';
import { runStdioServer, type ServerApp } from '@code-cluster/mcp-kit';
import { inProcessTransport, type RestTransport } from '@code-cluster/shared';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { z } from 'zod';
import { type GroundstationDeps, SCOPES } from './deps.js';
import { groundstationServer } from './server.js';
import { VERSION } from './version.js';

const options = {
  apiUrl: {
    flag: 'api-url',
    env: 'GROUNDSTATION_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description: 'base URL of a remote ground station system; unset: the embedded system runs in process',
  },
  apiToken: {
    flag: 'api-token',
    env: 'GROUNDSTATION_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for the remote ground station system',
  },
  scope: {
    flag: 'scope',
    env: 'GROUNDSTATION_SCOPE',
    schema: z.enum(SCOPES).default('consulta'),
    description: "'consulta' (default: stations, health, bookings) or 'operador' (also programs maintenance)",
  },
  operatorToken: {
    flag: 'operator-token',
    env: 'GROUNDSTATION_OPERATOR_TOKEN',
    schema: z.string().min(1).optional(),
    description: "this server's operator credential for the remote system; used only with --scope operador",
  },
};

const app: ServerApp<typeof options, GroundstationDeps> = {
  name: 'groundstation-mcp',
  version: VERSION,
  summary: 'MCP server of the CO.DE ground stations (status, health, contact scheduling, maintenance)',
  options,
  async start(config, logger) {
    const operator = config.scope === 'operador';
    let closeSystem: (() => void) | undefined;
    let operatorToken: string | undefined;
    let transport: RestTransport;
    if (config.apiUrl) {
      transport = (await import('@code-cluster/shared/http')).httpTransport({
        baseUrl: config.apiUrl,
        token: config.apiToken,
      });
      // Outside operator scope the credential is never handed to the client, even when configured.
      operatorToken = operator ? config.operatorToken : undefined;
      if (operator && !operatorToken) {
        logger.warning(
          'operator scope without GROUNDSTATION_OPERATOR_TOKEN: the system will refuse maintenance',
        );
      }
    } else {
      // The embedded system is this process's own: in operator scope it gets a fresh credential only this
      // server knows; otherwise none, and it refuses every operator action.
      operatorToken = operator ? randomBytes(24).toString('hex') : undefined;
      transport = inProcessTransport(async () => {
        const { createGroundstationSystem } = await import('@code-cluster/systems/groundstation');
        const system = createGroundstationSystem({ operatorToken });
        closeSystem = () => system.close();
        return system.handler;
      });
    }
    logger.info(
      config.apiUrl ? 'using remote ground station system' : 'using embedded ground station system',
      {
        url: config.apiUrl,
        scope: config.scope,
      },
    );
    const groundstation = new GroundstationClient(transport, operatorToken ? { operatorToken } : {});
    return {
      definition: groundstationServer(config.scope),
      deps: { groundstation, scope: config.scope },
      close: async () => {
        await groundstation.close();
        closeSystem?.();
      },
    };
  },
};

void runStdioServer(app);
