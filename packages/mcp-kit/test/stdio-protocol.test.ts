import { StdioPeer } from '@code-cluster/testkit';
import { describeProtocolRules } from '@code-cluster/testkit/vitest';
import { FIXTURE_BIN } from './global-setup.js';

const spawnFixture = (args: string[] = []) => StdioPeer.spawn(process.execPath, [FIXTURE_BIN, ...args]);

describeProtocolRules('mcp-kit fixture server', {
  spawn: spawnFixture,
  happy: { tool: 'eco', arguments: { texto: 'hola', veces: 2 } },
  schemaViolation: { tool: 'eco', arguments: { texto: 'hola', veces: 200 }, mentions: ['veces', '5', '200'] },
  domainError: { tool: 'fallar', arguments: { modo: 'dominio' }, mentions: /mantenimiento/ },
  writeTools: ['escribir'],
});
