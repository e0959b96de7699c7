import { DISCOVERY_TOOLS, describeTool } from '@code-cluster/mcp-kit';
import { spawnServer } from '@code-cluster/testkit';
import { describeProtocolRules } from '@code-cluster/testkit/vitest';
import { afterAll } from 'vitest';
import { tools } from '../src/tools/index.js';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());

describeProtocolRules('hub-mcp (built bin)', {
  spawn: (args) => spawnServer('hub', args, { env: { ...process.env, CODE_CLUSTER_DATA_DIR: data.dir } }),
  happy: { tool: 'listar_topicos', arguments: {} },
  schemaViolation: {
    tool: 'leer_eventos',
    arguments: { topico: 'alertas', limite: 500 },
    mentions: ['limite', '100', '500'],
  },
  domainError: { tool: 'leer_eventos', arguments: { topico: 'no-existe' }, mentions: /no existe/ },
  writeTools: ['publicar_evento'],
  sourceTools: [...DISCOVERY_TOOLS, ...tools].map(describeTool),
});
