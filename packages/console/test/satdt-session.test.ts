import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runConsole, transcriptBodies } from './helpers.js';

// The real satdt-mcp, as `code-console --server satdt` runs it. Kept out of the default run until the app
// is built in CI (see vitest.config.ts); it fails, never skips, when the bundle is missing.
const SATDT_BIN = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '../../..'),
  'apps/satdt/dist/satdt-mcp.cjs',
);

function requireSatdt(): void {
  if (!existsSync(SATDT_BIN)) {
    throw new Error(`${SATDT_BIN} is missing: build it first (\`pnpm build\` at the repository root)`);
  }
}

const lines = (...commands: string[]) => `${commands.join('\n')}\n`;

describe('the course session against the real satdt-mcp', () => {
  it('satdt-mcp is built', () => {
    expect(existsSync(SATDT_BIN), `${SATDT_BIN} is missing: run \`pnpm build\` at the repository root`).toBe(
      true,
    );
  });

  it('2025-06-18: every expectation holds (handshake, passes, -32000, -32602, isError, clean exit)', async () => {
    requireSatdt();
    const run = await runConsole(['--server', 'satdt']);
    expect(run.stdout).toContain('9/9 expectations held');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/▸ \d+ pases?[:\s]/);
    expect(run.stdout).toContain('← [satdt#2] JSON-RPC error -32000 "Server not initialized" (id 1)');
  });

  it('2025-11-25: the schema violation comes back as an isError result', async () => {
    requireSatdt();
    const run = await runConsole(['--server', 'satdt', '--version', '2025-11-25']);
    expect(run.stdout).toContain(
      '✓ expected: schema violation → result with isError: true (model-visible layer)',
    );
    expect(run.code).toBe(0);
  });

  it('--json: one JSON-RPC message per line, and the proximos_pases result carries structured passes', async () => {
    requireSatdt();
    const run = await runConsole(['--server', 'satdt', '--json', '--no-errors']);
    expect(run.code).toBe(0);
    const events = run.stdout
      .trimEnd()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            direction: string;
            message: { id?: number; result?: Record<string, unknown> };
          },
      );
    const passes = events.find((e) => e.direction === 'in' && e.message.id === 3)?.message.result;
    expect(passes?.['structuredContent']).toMatchObject({ pases: expect.any(Array) });
  });

  it('interactive: -32700, -32600, -32601, -32602 and silence for notifications, as DESIGN.md §3 says', async () => {
    requireSatdt();
    const run = await runConsole(['-i', '--server', 'satdt'], {
      input: lines(
        'raw {bad',
        'init',
        'initialized',
        'raw {"jsonrpc":"2.0","id":9}',
        'raw {"jsonrpc":"2.0","id":10,"method":"no/such/method"}',
        'call no_such_tool {}',
        'raw {"jsonrpc":"2.0","method":"notifications/cancelled","params":42}',
        'init',
        'quit',
      ),
    });
    expect(run.code).toBe(0);
    const answers = transcriptBodies(run.stdout)
      .filter((e) => e.header.startsWith('←'))
      .map((e) => JSON.parse(e.body) as { id: unknown; error?: { code: number } });
    expect(answers.slice(0, 5).map((a) => [a.id, a.error?.code])).toEqual([
      [null, -32700],
      [1, undefined],
      [9, -32600],
      [10, -32601],
      [2, -32602],
    ]);
    // A second initialize on the same session is an error too.
    expect(answers[5]).toMatchObject({ id: 3, error: { code: expect.any(Number) } });
    expect(answers).toHaveLength(6);
    expect(run.stdout).toContain('(no answer within 1000 ms)');
    expect(run.stdout).toMatch(/satdt exited with code 0 after \d+ ms\./);
  });
});
