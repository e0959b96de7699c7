import { join } from 'node:path';
import { createKitServer, Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import { createAcademySystem } from '@code-cluster/systems/academy';
import { type SpawnOptions, spawnServerWithData, tempDataDir } from '@code-cluster/testkit';
import { connectKitInMemory } from '@code-cluster/testkit/in-memory';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { academyServer } from '../src/server.js';

export { resourceText, tempDataDir, textOf } from '@code-cluster/testkit';

/** The embedded system's clock in in-process tests. */
export const PINNED = '2026-06-27T10:30:00.000Z';

export const quietLogger = () => new Logger('academy-mcp-test', 'emergency');

/** academy-mcp over an embedded system (SQLite file in a temp dir, pinned clock), with a real SDK client. */
export async function connectEmbedded(
  options: {
    readOnly?: boolean;
    protocolVersion?: string;
    capabilities?: ClientCapabilities;
    toolTimeoutMs?: number;
  } = {},
) {
  const data = tempDataDir();
  const system = createAcademySystem({ file: join(data.dir, 'academy.db'), now: () => Date.parse(PINNED) });
  const academy = new AcademyClient(inProcessTransport(() => system.handler));
  const connection = await connectKitInMemory(
    createKitServer,
    academyServer,
    { academy },
    {
      logger: quietLogger(),
      ...options,
      afterClose: () => {
        system.close();
        data.remove();
      },
    },
  );
  return { ...connection, system };
}

/** Spawns the built bin on `dataDir`, without the developer's ACADEMY_* settings, plus `env`. */
export const spawnAcademy = (
  dataDir: string,
  args: string[] = [],
  env: Record<string, string> = {},
  options: SpawnOptions = {},
) => spawnServerWithData('academy', dataDir, args, env, options);
