import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createKitServer, Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import { migrateAcademy, openAcademySystem } from '@code-cluster/systems/academy';
import { type SpawnOptions, spawnServerWithData, tempDataDir } from '@code-cluster/testkit';
import { connectKitInMemory } from '@code-cluster/testkit/in-memory';
import { freshDatabase } from '@code-cluster/testkit/postgres';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { academyServer } from '../src/server.js';

export { resourceText, tempDataDir, textOf } from '@code-cluster/testkit';

/** The embedded system's clock in in-process tests. */
export const PINNED = '2026-06-27T10:30:00.000Z';

export const quietLogger = () => new Logger('academy-mcp-test', 'emergency');

/** A migrated academy database of a test file's own, with its SELECT-only analytics role. */
export interface AcademyDatabase {
  url: string;
  analyticsUrl: string;
  dispose(): Promise<void>;
}

/** A fresh PostgreSQL database migrated for the academy, or undefined (said on stderr) without the engine. */
export async function academyDatabase(suite: string): Promise<AcademyDatabase | undefined> {
  const db = await freshDatabase(suite);
  if (!db) return undefined;
  const role = `academy_app_${process.pid}_${randomBytes(3).toString('hex')}`;
  await migrateAcademy({ databaseUrl: db.url, analyticsUrl: db.urlAs(role) });
  return {
    url: db.url,
    analyticsUrl: db.urlAs(role),
    dispose: async () => {
      // The role's grants live in this database only: dropped with them here, then the database goes.
      await db.query(`DROP OWNED BY "${role}"`);
      await db.query(`DROP ROLE "${role}"`);
      await db.drop();
    },
  };
}

/**
 * academy-mcp over an embedded system (SQLite file in a temp dir, or the PostgreSQL `database`; pinned
 * clock), with a real SDK client.
 */
export async function connectEmbedded(
  options: {
    readOnly?: boolean;
    protocolVersion?: string;
    capabilities?: ClientCapabilities;
    toolTimeoutMs?: number;
    database?: AcademyDatabase | undefined;
  } = {},
) {
  const { database, ...kit } = options;
  const data = tempDataDir();
  const system = await openAcademySystem({
    file: join(data.dir, 'academy.db'),
    now: () => Date.parse(PINNED),
    ...(database ? { databaseUrl: database.url, analyticsUrl: database.analyticsUrl } : {}),
  });
  const academy = new AcademyClient(inProcessTransport(() => system.handler));
  const connection = await connectKitInMemory(
    createKitServer,
    academyServer,
    { academy },
    {
      logger: quietLogger(),
      ...kit,
      afterClose: () => {
        void system.close();
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
