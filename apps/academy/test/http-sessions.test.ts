import { serverBin } from '@code-cluster/testkit';
import { HttpServerProcess, HttpSession } from '@code-cluster/testkit/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const RUNAWAY = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r';
type ToolResult = { isError?: boolean; content: Array<{ text: string }>; structuredContent?: unknown };

const data = tempDataDir();
let server: HttpServerProcess;
beforeAll(async () => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('ACADEMY_')));
  server = await HttpServerProcess.start(serverBin('academy'), [], {
    env: { ...env, CODE_CLUSTER_DATA_DIR: data.dir },
  });
});
afterAll(async () => {
  await server?.stop();
  data.remove();
});

const sql = async (session: HttpSession, text: string) => {
  const { response } = await session.request('tools/call', {
    name: 'consulta_sql',
    arguments: { sql: text },
  });
  return response?.result as ToolResult;
};

describe('academy-mcp over HTTP: one session cannot starve another', () => {
  it("answers another session's SELECT 1 while one session's runaway queries wait their turn", async () => {
    const flooding = await HttpSession.open(server.url);
    const other = await HttpSession.open(server.url);
    // Warm: both pool children have started once this answers.
    expect((await sql(other, 'SELECT 1')).isError).toBeFalsy();
    let settled = 0;
    const flood = Array.from({ length: 4 }, () =>
      sql(flooding, RUNAWAY).finally(() => {
        settled++;
      }),
    );
    // Let the flood reach the server (loopback: milliseconds) before the fifth and the other query; the
    // first runaway holds its child for 2 s, so none of the flood has settled yet.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const fifth = await sql(flooding, RUNAWAY);
    expect(fifth.isError).toBe(true);
    expect(fifth.content[0]!.text).toContain('Esta sesión ya tiene 4 consultas en curso o en espera');
    const answered = await sql(other, 'SELECT 1 AS uno');
    expect(answered.isError).toBeFalsy();
    expect(answered.structuredContent).toMatchObject({ filas: [[1]] });
    // The flooding session runs one query at a time (2 s each): most of its flood is still waiting.
    expect(settled).toBeLessThan(4);
    const results = await Promise.all(flood);
    expect(results.every((r) => r.isError && r.content[0]!.text.includes('superó el límite de 2 s'))).toBe(
      true,
    );
  }, 30_000);
});
