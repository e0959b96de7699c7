import { systemOptions } from '@code-cluster/mcp-kit';

/**
 * academy-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = systemOptions('ACADEMY', 'academy system');
