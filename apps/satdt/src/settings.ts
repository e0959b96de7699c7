import { systemOptions } from '@code-cluster/mcp-kit';

/**
 * satdt-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = systemOptions('SATDT', 'satdt system');
