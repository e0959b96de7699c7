import { readFileSync } from 'node:fs';
import { createKitServer, Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { SatdtClient } from '@code-cluster/shared/satdt';
import { createSatdtSystem } from '@code-cluster/systems/satdt';
import { connectKitInMemory } from '@code-cluster/testkit/in-memory';
import { satdtServer } from '../src/server.js';

export { resourceText, textOf } from '@code-cluster/testkit';

/** Near the epochs of the shipped element sets (2026-06-23 … 06-28), where SGP4 is accurate. */
export const PINNED = '2026-06-27T00:00:00.000Z';

export const quietLogger = () => new Logger('satdt-mcp-test', 'emergency');

/** satdt-mcp over the embedded twin, with the twin's clock pinned, connected to a real SDK client. */
export async function connectEmbedded(protocolVersion?: string, now = PINNED) {
  return connectKitInMemory(createKitServer, satdtServer, embeddedDeps(now), {
    logger: quietLogger(),
    protocolVersion,
  });
}

/** The twin's client over the embedded system, its clock pinned. */
export function embeddedDeps(now = PINNED) {
  const system = createSatdtSystem({ now: () => Date.parse(now) });
  return { satdt: new SatdtClient(inProcessTransport(() => system.handler)) };
}

const shipped = readFileSync(
  new URL('../../../packages/systems/data/satdt/catalog.tle', import.meta.url),
  'utf8',
);

/** Modulo-10 TLE checksum (the format's own rule), so re-dated fixture lines stay valid. */
function checksum(line: string): number {
  let sum = 0;
  for (const c of line.slice(0, 68)) sum += c === '-' ? 1 : /\d/.test(c) ? Number(c) : 0;
  return sum % 10;
}
function withColumns(line: string, column: number, text: string): string {
  const body = line.slice(0, column - 1) + text + line.slice(column - 1 + text.length, 68);
  return body + checksum(body);
}
const lines = shipped.split('\n').filter((l) => l.trim() !== '');
const at = lines.findIndex((l) => l.startsWith('1 25544U'));
const [, issLine1, issLine2] = [lines[at - 1]!, lines[at]!, lines[at + 1]!];
/** The ISS re-dated to 29/06 12:00Z, and a satellite the shipped catalog lacks (NORAD 90001), as TLE text. */
export function elementUpdate(): string {
  return [
    'ISS (ZARYA)',
    withColumns(issLine1, 19, '26180.50000000'),
    issLine2,
    'TEST OBJECT',
    withColumns(withColumns(issLine1, 3, '90001'), 10, '26001A  '),
    withColumns(issLine2, 3, '90001'),
  ].join('\n');
}
