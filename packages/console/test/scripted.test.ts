import { describe, expect, it } from 'vitest';
import { ANSI, fixtureTarget, runConsole, transcriptBodies } from './helpers.js';

describe('scripted mode against the fixture server', () => {
  it('replays the course session, printing every message it sends and receives, and exits 0', async () => {
    const run = await runConsole(fixtureTarget());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('→ [fixture-server] request initialize (id 1)');
    expect(run.stdout).toContain('← [fixture-server] result (id 1)');
    expect(run.stdout).toContain(
      '→ [fixture-server] notification notifications/initialized — no reply expected',
    );
    expect(run.stdout).toContain('• proximos_pases — Ventanas de visibilidad futuras desde una estación.');
    expect(run.stdout).toContain('▸ 3 pases: 03:14Z (elev 47°), 04:50Z (elev 12°), 22:07Z (elev 61°)');
    expect(run.stdout).toContain(
      '← [fixture-server#2] JSON-RPC error -32000 "Server not initialized" (id 1)',
    );
    expect(run.stdout).toContain('✓ expected: schema violation → JSON-RPC error -32602 (protocol layer)');
    expect(run.stdout).toContain(
      '✓ expected: unknown satellite → result with isError: true (model-visible layer)',
    );
    expect(run.stdout).toMatch(/fixture-server exited with code 0 after \d+ ms/);
    expect(run.stdout).toContain('9/9 expectations held');
    expect(run.stdout).not.toMatch(ANSI);
  });

  it('prints each message as valid, pretty-printed JSON under its arrow line', async () => {
    const run = await runConsole(fixtureTarget());
    const entries = transcriptBodies(run.stdout);
    const sent = entries.filter((e) => e.header.startsWith('→'));
    const received = entries.filter((e) => e.header.startsWith('←'));
    // initialize, initialized, tools/list, 3 × tools/call on the main connection + tools/list on the second
    expect(sent).toHaveLength(7);
    expect(received).toHaveLength(6);
    for (const entry of entries) {
      const message = JSON.parse(entry.body) as { jsonrpc: string };
      expect(message.jsonrpc).toBe('2.0');
    }
    const call = JSON.parse(sent[3]!.body) as { method: string; params: unknown };
    expect(call).toMatchObject({
      method: 'tools/call',
      params: { name: 'proximos_pases', arguments: { norad_id: 25544, estacion: 'orbiteye-mx', horas: 24 } },
    });
    // Nested objects break over lines; small ones stay on one.
    expect(sent[3]!.body).toContain(
      '"arguments": { "norad_id": 25544, "estacion": "orbiteye-mx", "horas": 24 }',
    );
  });

  it('--json prints only the transcript: one JSON object per line with a direction', async () => {
    const run = await runConsole(['--json', ...fixtureTarget()], { env: { FORCE_COLOR: '1' } });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.trimEnd().split('\n');
    const events = lines.map(
      (line) => JSON.parse(line) as { server: string; direction: string; message: Record<string, unknown> },
    );
    expect(events.length).toBe(13);
    for (const event of events) {
      expect(['in', 'out']).toContain(event.direction);
      expect(event.message['jsonrpc']).toBe('2.0');
    }
    expect(events.filter((e) => e.direction === 'out').map((e) => e.message['method'])).toEqual([
      'initialize',
      'notifications/initialized',
      'tools/list',
      'tools/call',
      'tools/list',
      'tools/call',
      'tools/call',
    ]);
    expect(
      events.find((e) => e.server === 'fixture-server#2' && e.direction === 'in')?.message,
    ).toMatchObject({
      error: { code: -32000, message: 'Server not initialized' },
    });
    expect(run.stdout).not.toMatch(ANSI);
  });

  it('--version 2025-11-25 expects a schema violation as an isError result, and gets it', async () => {
    const run = await runConsole(['--version', '2025-11-25', ...fixtureTarget()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"protocolVersion": "2025-11-25"');
    expect(run.stdout).toContain(
      '✓ expected: schema violation → result with isError: true (model-visible layer)',
    );
    expect(run.stdout).not.toContain('-32602');
  });

  it('an unsupported version: the server counters with one it supports', async () => {
    const run = await runConsole(['--version', '2030-01-01', '--no-errors', ...fixtureTarget()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '✓ expected: the server counters the unsupported 2030-01-01 with one it supports',
    );
  });

  it('exits 1 and says which expectations failed when the server does not follow the rules', async () => {
    // --lenient: a bare SDK server, with no lifecycle gate and schema violations as isError results.
    const run = await runConsole(fixtureTarget('--lenient'));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '✗ NOT as expected: tools/list before initialize → JSON-RPC error -32000 "Server not initialized" — got a successful result',
    );
    expect(run.stdout).toContain(
      '✗ schema violation → JSON-RPC error -32602 (protocol layer) — got a result with isError',
    );
    expect(run.stdout).toContain('7/9 expectations held');
  });

  it('--no-errors skips the error demos', async () => {
    const run = await runConsole(['--no-errors', ...fixtureTarget()]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('fixture-server#2');
    expect(run.stdout).not.toContain('"horas": 200');
    expect(run.stdout).toContain('6/6 expectations held');
  });

  it("hides the server's stderr unless --show-stderr", async () => {
    const hidden = await runConsole(['--no-errors', ...fixtureTarget()]);
    expect(hidden.stdout).not.toContain('ready on stdio');
    const shown = await runConsole(['--no-errors', '--show-stderr', ...fixtureTarget()]);
    expect(shown.stdout).toContain('fixture-server stderr │ fixture-mcp: ready on stdio');
    const json = await runConsole(['--json', '--no-errors', '--show-stderr', ...fixtureTarget()]);
    const lines = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual({
      server: 'fixture-server',
      direction: 'stderr',
      text: 'fixture-mcp: ready on stdio',
    });
  });

  it('colours only when asked: FORCE_COLOR forces it on a pipe, NO_COLOR turns it off', async () => {
    const forced = await runConsole(['--no-errors', ...fixtureTarget()], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(ANSI);
    const off = await runConsole(['--no-errors', ...fixtureTarget()], { env: { NO_COLOR: '1' } });
    expect(off.stdout).not.toMatch(ANSI);
  });

  it('exits 1 when the server dies mid-session, saying so', async () => {
    const run = await runConsole(fixtureTarget('--crash-on-call'));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '✗ NOT as expected: the scenario runs to the end — fixture-server exited (code 3)',
    );
  });

  it('exits 1 when the server cannot be started', async () => {
    const run = await runConsole(['--', '/nonexistent/mcp-server']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('mcp-server could not be started: spawn /nonexistent/mcp-server ENOENT');
  });
});

describe('command line', () => {
  it('--help prints the usage and exits 0', async () => {
    const run = await runConsole(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('code-console course [options] -- <command> [args...]');
    expect(run.stdout).toContain('code-console [episode] [options]');
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--version', 'latest'], '--version takes a date'],
    [['-i', '--json'], '--json is for the scripted mode'],
    [['--server', 'nope'], 'unknown server "nope"'],
    [['--server', 'satdt', '--', 'node', 'x.js'], 'either --server or `-- <command>`'],
    [['--'], '`--` must be followed by a command'],
    [['bogus'], 'unknown command "bogus"; commands: episode, catalog, course'],
    [['episode', 'course'], 'unexpected argument "course"'],
    [['episode', '--server', 'satdt'], 'the episode always runs satdt, groundstation and hub'],
    [['episode', '-i'], '-i is not for the episode command'],
    [['catalog', '--no-errors'], '--no-errors is for the course session'],
    [['course', '--data-dir', '/tmp/x'], '--data-dir is for the episode and catalog commands'],
    [['course', '--server', 'satdt', '--server', 'hub'], 'give one --server'],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const run = await runConsole(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});
