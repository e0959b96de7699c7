import { DISCOVERY_TOOLS, describeTool } from '@code-cluster/mcp-kit';
import { spawnServer } from '@code-cluster/testkit';
import { describeProtocolRules } from '@code-cluster/testkit/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { tools } from '../src/tools/index.js';

describeProtocolRules('satdt-mcp (built bin)', {
  spawn: (args) => spawnServer('satdt', args),
  happy: { tool: 'satelite_info', arguments: { norad_id: 25544 } },
  schemaViolation: {
    tool: 'proximos_pases',
    arguments: { norad_id: 25544, estacion: 'orbiteye-mx', horas: 200 },
    mentions: ['horas', '72', '200'],
  },
  domainError: { tool: 'satelite_info', arguments: { norad_id: 99999 }, mentions: /NORAD 99999/ },
  writeTools: [],
  sourceTools: [...DISCOVERY_TOOLS, ...tools].map(describeTool),
});

describe('the course session, replayed over stdio against the built bin', () => {
  const peer = spawnServer('satdt');
  afterEach(() => expect(peer.invalidStdoutLines).toEqual([]));

  it('initialize 2025-06-18 → initialized → tools/list → proximos_pases 25544 orbiteye-mx 24', async () => {
    const init = await peer.initialize('2025-06-18');
    expect(init.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'satdt-mcp' } });
    const list = await peer.request('tools/list');
    const names = (list.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain('proximos_pases');
    const call = await peer.request('tools/call', {
      name: 'proximos_pases',
      arguments: { norad_id: 25544, estacion: 'orbiteye-mx', horas: 24 },
    });
    const result = call.result as {
      content: Array<{ text: string }>;
      structuredContent: { pases: unknown[] };
    };
    const first = result.content[0]!.text.split('\n')[0]!;
    expect(first).toMatch(/^(\d+) pases?: \d\d:\d\dZ \(elev \d+°\)/);
    expect(Number(first.split(' ')[0])).toBe(result.structuredContent.pases.length);
    // The shipped element sets are months old today: the answer says so instead of hiding it.
    expect(result.content[0]!.text).toContain('Aviso: los elementos orbitales tienen');
    const exit = await peer.close();
    expect(exit.code).toBe(0);
  });
});
