import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DISCOVERY_TOOLS, describeTool } from '@code-cluster/mcp-kit';
import { describeProtocolRules, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../src/tools/index.js';
import { spawnAcademy, tempDataDir } from './helpers.js';

// Every spawned server keeps its SQLite file in a temp dir, never in the user's data dir.
const suiteData = tempDataDir();
afterAll(() => suiteData.remove());

describeProtocolRules('academy-mcp (built bin)', {
  spawn: (args) => spawnAcademy(suiteData.dir, args),
  happy: { tool: 'progreso_estudiante', arguments: { estudiante: 'ana-garcia' } },
  schemaViolation: {
    tool: 'consulta_sql',
    arguments: { sql: 'SELECT 1', limite: 900 },
    mentions: ['limite', '500', '900'],
  },
  domainError: {
    tool: 'progreso_estudiante',
    arguments: { estudiante: 'nadie' },
    mentions: /No existe el estudiante/,
  },
  writeTools: ['registrar_avance', 'responder_quiz'],
  sourceTools: [...DISCOVERY_TOOLS, ...tools].map(describeTool),
});

const result = (m: { result?: unknown }) =>
  m.result as {
    isError?: boolean;
    content: Array<{ text: string }>;
    structuredContent?: Record<string, unknown>;
  };

describe('academy-mcp over stdio: analytics in the built bin', () => {
  const track = trackPeers();
  const data = tempDataDir();
  afterAll(() => data.remove());

  it('answers a read, refuses a write leaving academy.db unchanged, and kills a runaway query', async () => {
    const peer = spawnAcademy(data.dir);
    track(peer);
    await peer.initialize();
    const read = result(
      await peer.request('tools/call', {
        name: 'consulta_sql',
        arguments: { sql: 'SELECT count(*) AS n FROM estudiantes WHERE pais = ?', parametros: ['MX'] },
      }),
    );
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({ columnas: ['n'], filas: [[5]], truncado: false });

    const file = join(data.dir, 'academy.db');
    const hash = () => createHash('sha256').update(readFileSync(file)).digest('hex');
    const before = hash();
    const write = result(
      await peer.request('tools/call', {
        name: 'consulta_sql',
        arguments: { sql: 'SELECT 1; DROP TABLE avances' },
      }),
    );
    expect(write.isError).toBe(true);
    expect(write.content[0]!.text).toContain('2 sentencias');

    const started = performance.now();
    const runaway = result(
      await peer.request('tools/call', {
        name: 'consulta_sql',
        arguments: {
          sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r',
        },
      }),
    );
    expect(runaway.isError).toBe(true);
    expect(runaway.content[0]!.text).toContain('superó el límite de 2 s');
    expect(performance.now() - started).toBeLessThan(5_000);
    const after = result(
      await peer.request('tools/call', {
        name: 'consulta_sql',
        arguments: { sql: 'SELECT count(*) FROM cursos' },
      }),
    );
    expect(after.structuredContent).toMatchObject({ filas: [[4]] });
    expect(hash()).toBe(before);
  });

  it('answers valid SQLite a parser refused, binds true, caps bytes, and hides paths and answers', async () => {
    const peer = spawnAcademy(data.dir);
    track(peer);
    await peer.initialize();
    const call = async (args: Record<string, unknown>) =>
      result(await peer.request('tools/call', { name: 'consulta_sql', arguments: args }));
    const valid = await call({
      sql: 'SELECT id, rank() OVER (ORDER BY horas DESC) AS puesto, count(*) OVER () AS n FROM [cursos] ORDER BY puesto NULLS LAST',
    });
    expect(valid.isError).toBeFalsy();
    expect(valid.structuredContent).toMatchObject({ num_filas: 4 });
    const bound = await call({ sql: 'SELECT ?1 AS si', parametros: [true] });
    expect(bound.structuredContent).toMatchObject({ filas: [[1]] });
    const big = await call({ sql: "SELECT printf('%.*c', 200000, 'x') FROM avances LIMIT 500" });
    expect(big.structuredContent).toMatchObject({ truncado: true, motivo_truncado: 'bytes' });
    const path = await call({ sql: 'SELECT file FROM pragma_database_list' });
    expect(path.isError).toBe(true);
    expect(JSON.stringify(path)).not.toContain(data.dir);
    const walk = await call({
      sql: "SELECT 'a\\' AS p, randomblob(1000) AS q, sqlite_version() AS v, '#'\n AS r",
    });
    expect(walk.isError).toBe(true);
    expect(walk.content[0]!.text).toContain("'randomblob' no está permitida");
    const answers = await call({ sql: 'SELECT respuestas_json FROM intentos' });
    expect(answers.isError).toBe(true);
    const deep = await call({ sql: `SELECT ${'('.repeat(4990)}1${')'.repeat(4990)}` });
    expect(JSON.stringify(deep)).not.toMatch(/call stack|RangeError/);
  });
});
