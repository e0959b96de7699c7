import { databaseOptions, systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';

/**
 * lab-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('LAB', 'lab system'),
  ...databaseOptions('LAB'),
  pollIntervalMs: {
    flag: 'poll-interval-ms',
    env: 'LAB_POLL_INTERVAL_MS',
    schema: z.coerce.number().int().min(20).max(10_000).default(200),
    description: 'how often resultado_entrega checks a running grading, ms (default 200)',
  },
  academyApiUrl: {
    flag: 'academy-api-url',
    env: 'LAB_ACADEMY_API_URL',
    schema: z.url({ protocol: /^https?$/ }).optional(),
    description:
      'embedded lab suite: academy system whose roster checks students (default: the academy of the same data dir)',
  },
  academyApiToken: {
    flag: 'academy-api-token',
    env: 'LAB_ACADEMY_API_TOKEN',
    schema: z.string().min(1).optional(),
    description: 'bearer token for that academy system',
  },
  gradingBudgetMs: {
    flag: 'grading-budget-ms',
    env: 'LAB_GRADING_BUDGET_MS',
    schema: z.coerce.number().int().min(100).max(120_000).default(10_000),
    description:
      'embedded lab suite: wall-clock budget of one grading, ms; past it the submission is no_terminada (default 10000)',
  },
};
