import {
  inProcessTransport,
  type RestHandler,
  type RestTransport,
  withoutPassword,
} from '@code-cluster/shared';
import { z } from 'zod';
import type { OptionSpecs } from './config.js';
import type { Logger } from './logging.js';

/**
 * Where a server's one system lives (DESIGN.md §4): `--api-url` / `<PREFIX>_API_URL` and its credential
 * `--api-token` / `<PREFIX>_API_TOKEN`. Unset, the embedded reference system runs in process.
 */
export function systemOptions(prefix: string, system: string) {
  return {
    apiUrl: {
      flag: 'api-url',
      env: `${prefix}_API_URL`,
      schema: z.url({ protocol: /^https?$/ }).optional(),
      description: `base URL of a remote ${system}; unset: the embedded reference system runs in process`,
    },
    apiToken: {
      flag: 'api-token',
      env: `${prefix}_API_TOKEN`,
      schema: z.string().min(1).optional(),
      description: `bearer token for the remote ${system} (this server's own, never a client's)`,
    },
  } satisfies OptionSpecs;
}

/**
 * The embedded system's store on PostgreSQL (issue 12): `--database-url` / `<PREFIX>_DATABASE_URL`. Unset,
 * SQLite in the data dir. Replicas of a server on one URL share one world.
 */
export function databaseOptions(prefix: string) {
  return {
    databaseUrl: {
      flag: 'database-url',
      env: `${prefix}_DATABASE_URL`,
      schema: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
      description:
        'embedded mode: keep the store on PostgreSQL at this URL (replicas share it); unset: SQLite in the data dir',
    },
  } satisfies OptionSpecs;
}

/** An embedded reference system as `packages/systems` builds it. */
export interface EmbeddedSystem {
  handler: RestHandler;
  /** May be async (a pool to end, a grading to hand back): the server's shutdown waits for it. */
  close?(): void | Promise<void>;
}

export interface SystemConnection<S> {
  transport: RestTransport;
  /** The embedded system, loaded on first use (the same instance the transport calls); undefined when remote. */
  embedded: (() => Promise<S>) | undefined;
  /** Closes the pool to a remote system, or the embedded system once it was loaded. */
  close(): Promise<void>;
}

/**
 * The REST transport to a server's system: undici to `apiUrl` when it is set, otherwise the embedded
 * reference system, loaded on the first request — a server must answer `initialize` fast, and an embedded
 * system (SGP4 catalog, SQLite files) is the heavy part.
 */
export async function connectSystem<S extends EmbeddedSystem>(
  config: { apiUrl?: string | undefined; apiToken?: string | undefined },
  options: {
    name: string;
    logger: Logger;
    load: () => Promise<S>;
    /**
     * The shared engine the embedded system runs on, when one is configured (a URL of `variable`): then the
     * system is opened at start, not on first use, and one that cannot open is a setting error — one stderr
     * line naming the variable and the reason, exit 2.
     */
    engine?: { variable: string; url: string | undefined; what: string };
    /**
     * For an embedded system on its files in the data dir (no remote system, no engine URL): checked at
     * start, because a data dir that cannot be written fails every call; false (the check having said
     * why) stops the server, exit 2.
     */
    dataDirUsable?: () => Promise<boolean>;
  },
): Promise<SystemConnection<S>> {
  if (config.apiUrl) {
    const { httpTransport } = await import('@code-cluster/shared/http');
    const transport = httpTransport({ baseUrl: config.apiUrl, token: config.apiToken });
    options.logger.info(`using remote ${options.name}`, { url: config.apiUrl });
    return { transport, embedded: undefined, close: () => transport.close?.() ?? Promise.resolve() };
  }
  let system: Promise<S> | undefined;
  const engine = options.engine;
  if (!engine?.url && options.dataDirUsable && !(await options.dataDirUsable())) process.exit(2);
  if (engine?.url) {
    system = options.load();
    await system.catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(
        `${options.logger.name}: ${engine.variable} ${withoutPassword(engine.url!)}: ${engine.what} unusable (${reason})\n`,
      );
      process.exit(2);
    });
    options.logger.info(`using embedded ${options.name} on ${engine.what}`, {
      url: withoutPassword(engine.url),
    });
  }
  const embedded = () => {
    system ??= options.load();
    return system;
  };
  if (!engine?.url) options.logger.info(`using embedded ${options.name}`);
  return {
    transport: inProcessTransport(async () => (await embedded()).handler),
    embedded,
    close: async () => {
      await (await system)?.close?.();
    },
  };
}
