import { type RestHandler, withoutPassword } from '@code-cluster/shared';

/** A system that cannot start with its settings (an engine that does not answer): one line, exit 2. */
export class StartError extends Error {
  override readonly name = 'StartError';
}

export interface SystemEntry {
  defaultPort: number;
  create(): Promise<RestHandler>;
  /**
   * `code-systems migrate <system>`: creates or upgrades the system's schema on PostgreSQL at `databaseUrl`
   * (an administrator's), or its SQLite file in the data dir without one, idempotently. Resolves to what it
   * did, in one line.
   */
  migrate?(databaseUrl: string | undefined): Promise<string>;
}

/** `<SYSTEM>_DATABASE_URL`: the system's store on PostgreSQL; unset (or empty), SQLite in the data dir. */
export function databaseUrl(system: string): string | undefined {
  return process.env[`${system.toUpperCase()}_DATABASE_URL`] || undefined;
}

/**
 * Opens a system on the engine `variable` names (unset or empty: its embedded default, `open(undefined)`);
 * an engine that cannot be used is a StartError naming the variable, the URL without its password, and why.
 */
async function onEngine<T>(
  variable: string,
  what: string,
  open: (url: string | undefined) => Promise<T>,
): Promise<T> {
  const url = process.env[variable] || undefined;
  try {
    return await open(url);
  } catch (error) {
    if (!url) throw error;
    throw new StartError(
      `${variable} ${withoutPassword(url)}: ${what} unusable (${error instanceof Error ? error.message : error})`,
    );
  }
}

/** A system on its `<SYSTEM>_DATABASE_URL`, or SQLite without one. */
export function onDatabase<T>(system: string, open: (url: string | undefined) => Promise<T>): Promise<T> {
  return onEngine(`${system.toUpperCase()}_DATABASE_URL`, 'PostgreSQL', open);
}

/** The reference systems this package can run, loaded only when asked for. */
export const SYSTEMS = {
  satdt: {
    defaultPort: 7401,
    // Current element sets from SATDT_ELEMENTS_FILE / SATDT_ELEMENTS_URL (comma separated), refreshed every
    // SATDT_ELEMENTS_REFRESH_H hours, as satdt-mcp's embedded twin does; what each source gave goes to stderr.
    create: async () =>
      (await import('./satdt/index.js')).createSatdtSystem({
        elements: {
          file: process.env.SATDT_ELEMENTS_FILE || undefined,
          urls: (process.env.SATDT_ELEMENTS_URL ?? '')
            .split(',')
            .map((url) => url.trim())
            .filter((url) => url !== ''),
          refreshHours: Number(process.env.SATDT_ELEMENTS_REFRESH_H) || undefined,
        },
        log: (level, message) => process.stderr.write(`${level.toUpperCase()} satdt elements: ${message}\n`),
      }).handler,
  },
  groundstation: {
    defaultPort: 7402,
    // Operator actions need GROUNDSTATION_OPERATOR_TOKEN; without it the system refuses them all. Bookings
    // are judged by the satdt service at GROUNDSTATION_SATDT_API_URL, else by an embedded satdt system. The
    // contact book on PostgreSQL at GROUNDSTATION_DATABASE_URL (schema groundstation), else SQLite.
    create: async () => {
      const { openGroundstationSystem } = await import('./groundstation/index.js');
      const system = await onDatabase('groundstation', (url) =>
        openGroundstationSystem({
          operatorToken: process.env.GROUNDSTATION_OPERATOR_TOKEN || undefined,
          satdt: {
            apiUrl: process.env.GROUNDSTATION_SATDT_API_URL || undefined,
            apiToken: process.env.GROUNDSTATION_SATDT_API_TOKEN || undefined,
          },
          databaseUrl: url,
        }),
      );
      return system.handler;
    },
    migrate: async (url) => (await import('./groundstation/index.js')).migrateGroundstation(url),
  },
  hub: {
    defaultPort: 7403,
    // The log on NATS JetStream at HUB_NATS_URL (stream HUB_NATS_STREAM), else SQLite in the data dir.
    create: async () => {
      const { openHubSystem } = await import('./hub/index.js');
      const system = await onEngine('HUB_NATS_URL', 'NATS JetStream', (natsUrl) =>
        openHubSystem({ natsUrl, natsStream: process.env.HUB_NATS_STREAM || undefined }),
      );
      return system.handler;
    },
  },
  roverdt: {
    defaultPort: 7404,
    // The rovers' state on PostgreSQL at ROVERDT_DATABASE_URL (schema roverdt), else SQLite in the data dir.
    create: async () => {
      const { openRoverdtSystem } = await import('./roverdt/index.js');
      return (await onDatabase('roverdt', (url) => openRoverdtSystem({ databaseUrl: url }))).handler;
    },
    migrate: async (url) => {
      const { migrateRoverdt } = await import('./roverdt/index.js');
      return migrateRoverdt(url);
    },
  },
  lab: {
    defaultPort: 7405,
    // Students are checked against LAB_ACADEMY_API_URL's roster, else the academy of the same data dir.
    // The store on PostgreSQL at LAB_DATABASE_URL (schema lab), else SQLite in the data dir.
    create: async () => {
      const { openLabSystem } = await import('./lab/index.js');
      const system = await onDatabase('lab', (url) =>
        openLabSystem({
          academyApiUrl: process.env.LAB_ACADEMY_API_URL || undefined,
          academyApiToken: process.env.LAB_ACADEMY_API_TOKEN || undefined,
          databaseUrl: url,
        }),
      );
      return system.handler;
    },
    migrate: async (url) => (await import('./lab/index.js')).migrateLab(url),
  },
  academy: {
    defaultPort: 7406,
    // On PostgreSQL at ACADEMY_DATABASE_URL, consulta_sql runs as ACADEMY_ANALYTICS_DATABASE_URL's
    // SELECT-only role (required, checked at start); else SQLite in the data dir.
    create: async () => {
      const { openAcademySystem } = await import('./academy/index.js');
      const analyticsUrl = process.env.ACADEMY_ANALYTICS_DATABASE_URL || undefined;
      // A missing or writable analytics role is that variable's fault, not ACADEMY_DATABASE_URL's.
      let setting: Error | undefined;
      const system = await onDatabase('academy', (url) =>
        openAcademySystem({ databaseUrl: url, analyticsUrl }).catch((error: unknown) => {
          if (error instanceof Error && error.name === 'AnalyticsSettingError') setting = error;
          throw error;
        }),
      ).catch((error: unknown) => {
        throw setting ? new StartError(setting.message) : error;
      });
      return system.handler;
    },
    migrate: async (url) =>
      (await import('./academy/index.js')).migrateAcademy({
        databaseUrl: url,
        analyticsUrl: process.env.ACADEMY_ANALYTICS_DATABASE_URL || undefined,
      }),
  },
} satisfies Record<string, SystemEntry>;

export type SystemName = keyof typeof SYSTEMS;
