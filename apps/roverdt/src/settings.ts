import { databaseOptions, systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';

/**
 * roverdt-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('ROVERDT', 'rover twin'),
  ...databaseOptions('ROVERDT'),
  legDelayMs: {
    flag: 'leg-delay-ms',
    env: 'ROVERDT_LEG_DELAY_MS',
    schema: z.coerce.number().int().min(0).max(1_000).default(80),
    description: 'pause before each leg of ejecutar_ruta, ms (default 80): paces progress and cancellation',
  },
};
