import { inProcessTransport, type RestHandler, type RestTransport } from '@code-cluster/shared';
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

/** An embedded reference system as `packages/systems` builds it. */
export interface EmbeddedSystem {
  handler: RestHandler;
  close?(): void;
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
  options: { name: string; logger: Logger; load: () => Promise<S> },
): Promise<SystemConnection<S>> {
  if (config.apiUrl) {
    const { httpTransport } = await import('@code-cluster/shared/http');
    const transport = httpTransport({ baseUrl: config.apiUrl, token: config.apiToken });
    options.logger.info(`using remote ${options.name}`, { url: config.apiUrl });
    return { transport, embedded: undefined, close: () => transport.close?.() ?? Promise.resolve() };
  }
  let system: Promise<S> | undefined;
  const embedded = () => {
    system ??= options.load();
    return system;
  };
  options.logger.info(`using embedded ${options.name}`);
  return {
    transport: inProcessTransport(async () => (await embedded()).handler),
    embedded,
    close: async () => {
      (await system)?.close?.();
    },
  };
}
