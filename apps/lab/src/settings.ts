import { systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';

/**
 * lab-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('LAB', 'lab system'),
  pollIntervalMs: {
    flag: 'poll-interval-ms',
    env: 'LAB_POLL_INTERVAL_MS',
    schema: z.coerce.number().int().min(20).max(10_000).default(200),
    description: 'how often resultado_entrega checks a running grading, ms (default 200)',
  },
};
