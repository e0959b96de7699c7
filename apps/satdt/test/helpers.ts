import { Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { SatdtClient } from '@code-cluster/shared/satdt';
import { createSatdtSystem } from '@code-cluster/systems/satdt';
import { connectInMemory } from '@code-cluster/testkit/in-memory';
import { createServer } from '../src/server.js';

export { resourceText, textOf } from '@code-cluster/testkit';

/** Near the epochs of the shipped element sets (2026-06-23 … 06-28), where SGP4 is accurate. */
export const PINNED = '2026-06-27T00:00:00.000Z';

export const quietLogger = () => new Logger('satdt-mcp-test', 'emergency');

/** satdt-mcp over the embedded twin, with the twin's clock pinned, connected to a real SDK client. */
export async function connectEmbedded(protocolVersion?: string, now = PINNED) {
  const server = createServer(embeddedDeps(now), { logger: quietLogger() });
  return connectInMemory(server, protocolVersion ? { protocolVersion } : {});
}

/** The twin's client over the embedded system, its clock pinned. */
export function embeddedDeps(now = PINNED) {
  const system = createSatdtSystem({ now: () => Date.parse(now) });
  return { satdt: new SatdtClient(inProcessTransport(() => system.handler)) };
}
