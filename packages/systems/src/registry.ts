import type { RestHandler } from '@code-cluster/shared';

export interface SystemEntry {
  defaultPort: number;
  create(): Promise<RestHandler>;
}

/** The reference systems this package can run, loaded only when asked for. */
export const SYSTEMS = {
  satdt: {
    defaultPort: 7401,
    create: async () => (await import('./satdt/index.js')).createSatdtSystem().handler,
  },
} satisfies Record<string, SystemEntry>;

export type SystemName = keyof typeof SYSTEMS;
