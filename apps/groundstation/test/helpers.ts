import { createKitServer, Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { openGroundstationSystem } from '@code-cluster/systems/groundstation';
import { type SpawnOptions, spawnServerWithData } from '@code-cluster/testkit';
import { connectKitInMemory } from '@code-cluster/testkit/in-memory';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Scope } from '../src/deps.js';
import { groundstationServer } from '../src/server.js';

export { resourceText, tempDataDir, textOf } from '@code-cluster/testkit';

/** The embedded system's clock in in-process tests. */
export const PINNED = '2026-12-01T10:30:00.000Z';
/**
 * Geostationary satellites always above the mask of the stations they serve: contacts with them are valid
 * at any time. MEXSAT 3, MORELOS 3 and GOES 17 over orbiteye-mx and orbiteye-cl; METEOSAT-11 over orbiteye-es.
 */
export const GEO = { MEXSAT_3: 39035, MORELOS_3: 40946, GOES_17: 43226, METEOSAT_11: 40732 } as const;
export const OPERATOR_TOKEN = 'operator-token-for-tests';

/** ISO-8601 UTC, `minutes` after `from` (the pinned clock by default). */
export function after(minutes: number, from = Date.parse(PINNED)): string {
  return new Date(from + minutes * 60_000).toISOString();
}

export const quietLogger = () => new Logger('groundstation-mcp-test', 'emergency');

export interface EmbeddedOptions {
  scope?: Scope;
  readOnly?: boolean;
  protocolVersion?: string;
  /** What the test client declares (elicitation, …); none by default. */
  capabilities?: ClientCapabilities;
  toolTimeoutMs?: number;
  /** The system on PostgreSQL at this URL, in a schema of this connection's own; in-memory SQLite without. */
  databaseUrl?: string | undefined;
  /** A `consulta` server that can elevate sessions (solicitar_acceso_operador), as main.ts builds it. */
  elevation?: { credential?: string; confirm?: boolean };
  logger?: Logger;
}

let worlds = 0;

/** groundstation-mcp over an embedded system (in-memory SQLite, pinned clock), with a real SDK client. */
export async function connectEmbedded(options: EmbeddedOptions = {}) {
  const system = await openGroundstationSystem({
    ...(options.databaseUrl
      ? { databaseUrl: options.databaseUrl, databaseSchema: `gs_tools_${process.pid}_${++worlds}` }
      : { file: ':memory:' }),
    now: () => Date.parse(PINNED),
    operatorToken: OPERATOR_TOKEN,
  });
  const scope = options.scope ?? 'consulta';
  const elevation = options.elevation && {
    possible: true,
    credential: options.elevation.credential,
    confirm: options.elevation.confirm ?? false,
  };
  const groundstation = new GroundstationClient(
    inProcessTransport(() => system.handler),
    scope === 'operador' || elevation ? { operatorToken: OPERATOR_TOKEN } : {},
  );
  return connectKitInMemory(
    createKitServer,
    elevation ? groundstationServer(scope, true, true) : groundstationServer(scope),
    { groundstation, scope, ...(elevation ? { elevation } : {}), readOnly: options.readOnly },
    {
      logger: options.logger ?? quietLogger(),
      readOnly: options.readOnly,
      protocolVersion: options.protocolVersion,
      capabilities: options.capabilities,
      toolTimeoutMs: options.toolTimeoutMs,
      afterClose: () => system.close(),
    },
  );
}

/** Spawns the built bin on `dataDir`, without the developer's GROUNDSTATION_* settings, plus `env`. */
export const spawnGroundstation = (
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: SpawnOptions = {},
) => spawnServerWithData('groundstation', dataDir, args, env, options);
