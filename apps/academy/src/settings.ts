import { databaseOptions, systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';

/**
 * academy-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('ACADEMY', 'academy system'),
  ...databaseOptions('ACADEMY'),
  analyticsDatabaseUrl: {
    flag: 'analytics-database-url',
    env: 'ACADEMY_ANALYTICS_DATABASE_URL',
    schema: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    description:
      'with --database-url: the separate SELECT-only credentials consulta_sql runs as (required; the server refuses to start if that role can write)',
  },
};
