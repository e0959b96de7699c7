import { createKitServer, Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { RoverdtClient } from '@code-cluster/shared/roverdt';
import { openRoverdtSystem, type RoverdtSystem, type RoverSeed } from '@code-cluster/systems/roverdt';
import { type SpawnOptions, spawnServerWithData } from '@code-cluster/testkit';
import { connectKitInMemory } from '@code-cluster/testkit/in-memory';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { roverdtServer } from '../src/server.js';

export {
  resourceText,
  tempDataDir,
  textOf,
  wireData,
  wireIsError,
  wireText,
} from '@code-cluster/testkit';

/**
 * Destinations on the reference map from rover-1's start at (40, 40), found by driving them: one that
 * completes in 8 legs, one in 4, and one whose way north crosses soft sand in its third leg.
 */
export const FAR_EAST = { x: 100, y: 40 };
export const NEAR_EAST = { x: 70, y: 40 };
export const INTO_SAND = { x: 36, y: 70 };
/** Beyond the battery: 303 m needing ~857 Wh with 650 Wh above the reserve. */
export const TOO_FAR = { x: 250, y: 250 };

export const quietLogger = () => new Logger('roverdt-mcp-test', 'emergency');

export interface EmbeddedOptions {
  readOnly?: boolean;
  protocolVersion?: string;
  legDelayMs?: number;
  /** What the test client declares (elicitation, …); none by default. */
  capabilities?: ClientCapabilities;
  /** Rovers other than the reference one (e.g. with a low battery). */
  rovers?: RoverSeed[];
  /** The twin on PostgreSQL, in a schema of the test's own, instead of in-memory SQLite. */
  database?: { url: string; schema: string };
}

/** roverdt-mcp over an embedded twin (reference map, in-memory SQLite or PostgreSQL), with a real SDK client. */
export async function connectEmbedded(options: EmbeddedOptions = {}) {
  const system: RoverdtSystem = await openRoverdtSystem({
    ...(options.database
      ? { databaseUrl: options.database.url, databaseSchema: options.database.schema }
      : { file: ':memory:' }),
    ...(options.rovers ? { rovers: options.rovers } : {}),
  });
  const roverdt = new RoverdtClient(inProcessTransport(() => system.handler));
  const connection = await connectKitInMemory(
    createKitServer,
    roverdtServer,
    { roverdt, legDelayMs: options.legDelayMs ?? 0 },
    {
      logger: quietLogger(),
      readOnly: options.readOnly,
      protocolVersion: options.protocolVersion,
      capabilities: options.capabilities,
      afterClose: () => system.close(),
    },
  );
  return { ...connection, system };
}

/** Spawns the built bin on `dataDir`, without the developer's ROVERDT_* settings, plus `env`. */
export const spawnRoverdt = (
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: SpawnOptions = {},
) => spawnServerWithData('roverdt', dataDir, args, env, options);
