import { systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/ });

/**
 * satdt-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('SATDT', 'satdt system'),
  elementsFile: {
    flag: 'elements-file',
    env: 'SATDT_ELEMENTS_FILE',
    schema: z.string().min(1).optional(),
    description: 'embedded twin: a file of current element sets (TLE, 2- or 3-line, or OMM JSON)',
  },
  elementsUrls: {
    flag: 'elements-url',
    env: 'SATDT_ELEMENTS_URL',
    schema: z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((url) => url.trim())
          .filter((url) => url !== ''),
      )
      .pipe(z.array(httpUrl)),
    description:
      'embedded twin: HTTP(S) sources of element sets, comma separated (e.g. CelesTrak GP, FORMAT=json)',
  },
  elementsRefreshH: {
    flag: 'elements-refresh-h',
    env: 'SATDT_ELEMENTS_REFRESH_H',
    schema: z.coerce.number().min(0.25).max(168).default(8),
    description: 'embedded twin: hours between refreshes of the element URLs (0.25–168, default 8)',
  },
};
