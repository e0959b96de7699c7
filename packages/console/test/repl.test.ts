import { describe, expect, it } from 'vitest';
import { fixtureTarget, runConsole, transcriptBodies } from './helpers.js';

const lines = (...commands: string[]) => `${commands.join('\n')}\n`;

describe('interactive mode (-i) against the fixture server, driven through its stdin', () => {
  it("raw {bad: sends the line verbatim and shows the server's -32700 answer", async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], { input: lines('raw {bad', 'quit') });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('fixture-server> raw {bad');
    expect(run.stdout).toContain('→ [fixture-server] raw line, not valid JSON\n    {bad\n');
    expect(run.stdout).toContain('← [fixture-server] JSON-RPC error -32700 "Parse error" (id null)');
    const answer = transcriptBodies(run.stdout).find((e) => e.header.startsWith('←'));
    expect(JSON.parse(answer!.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
    expect(run.stdout).toMatch(/fixture-server exited with code 0 after \d+ ms\.\n$/);
  });

  it('sends a pasted JSON-RPC line as it is, without the raw command', async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], {
      input: lines(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pegado","version":"1"}}}',
        '  {"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        '[1, 2]',
        '{bad',
        'quit',
      ),
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('unknown command');
    const headers = transcriptBodies(run.stdout).map((e) =>
      e.header.replace(/^([→←]) \[fixture-server\] /, '$1 '),
    );
    expect(headers.filter((h) => h.startsWith('←'))).toEqual([
      '← result (id 1)',
      '← result (id 2)',
      expect.stringMatching(/^← JSON-RPC error -32600 /),
      '← JSON-RPC error -32700 "Parse error" (id null)',
    ]);
    const listed = transcriptBodies(run.stdout).find((e) => e.header.endsWith('result (id 2)'))!;
    expect(JSON.parse(listed.body).result.tools.map((t: { name: string }) => t.name)).toContain(
      'proximos_pases',
    );
  });

  it('sends nothing on its own: a request before init is refused, then the handshake and a call work', async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], {
      input: lines(
        'list',
        'init',
        'initialized',
        'list',
        'call proximos_pases {"norad_id":25544,"estacion":"orbiteye-mx","horas":24}',
        'ping',
        'quit',
      ),
    });
    expect(run.code).toBe(0);
    const entries = transcriptBodies(run.stdout);
    expect(entries.map((e) => e.header.replace(/^([→←]) \[fixture-server\] /, '$1 '))).toEqual([
      '→ request tools/list (id 1)',
      '← JSON-RPC error -32000 "Server not initialized" (id 1)',
      '→ request initialize (id 2)',
      '← result (id 2)',
      '→ notification notifications/initialized — no reply expected',
      '→ request tools/list (id 3)',
      '← result (id 3)',
      '→ request tools/call (id 4)',
      '← result (id 4)',
      '→ request ping (id 5)',
      '← result (id 5)',
    ]);
    for (const entry of entries) expect(() => JSON.parse(entry.body)).not.toThrow();
    expect(run.stdout).toContain('  • proximos_pases — Ventanas de visibilidad futuras desde una estación.');
    expect(run.stdout).toContain('▸ 3 pases: 03:14Z (elev 47°), 04:50Z (elev 12°), 22:07Z (elev 61°)');
    const listing = JSON.parse(entries.find((e) => e.header.endsWith('result (id 3)'))!.body).result;
    const bytes = Buffer.byteLength(JSON.stringify(listing), 'utf8');
    expect(run.stdout).toContain(`  tools/list: ${bytes} bytes ≈ ${Math.ceil(bytes / 4)} tokens (bytes / 4)`);
  });

  it('init <version> asks for that version', async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], { input: lines('init 2025-11-25') });
    expect(run.code).toBe(0);
    const [sent, received] = transcriptBodies(run.stdout).map(
      (e) => JSON.parse(e.body) as Record<string, unknown>,
    );
    expect(sent).toMatchObject({ method: 'initialize', params: { protocolVersion: '2025-11-25' } });
    expect(received).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('raw: a message that is not a request gets -32600, a notification gets no answer', async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], {
      input: lines(
        'raw {"jsonrpc":"2.0","id":9}',
        'raw {"jsonrpc":"2.0","method":"notifications/initialized"}',
      ),
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('← [fixture-server] JSON-RPC error -32600 "Invalid Request" (id 9)');
    expect(run.stdout).toContain(
      '→ [fixture-server] notification notifications/initialized — no reply expected',
    );
    expect(run.stdout).toContain('(no answer within 1000 ms)');
  });

  it('rejects bad commands locally, without sending anything', async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], {
      input: lines('bogus', 'call proximos_pases {bad', 'call', 'raw', 'help', 'quit'),
    });
    expect(run.code).toBe(0);
    expect(transcriptBodies(run.stdout)).toEqual([]);
    expect(run.stdout).toContain('unknown command "bogus"; type "help"');
    expect(run.stdout).toContain('the arguments must be JSON');
    expect(run.stdout).toContain('usage: call <tool> [json-arguments]');
    expect(run.stdout).toContain('usage: raw <line to send verbatim>');
    expect(run.stdout).toContain('raw <line>             send a line verbatim');
  });

  it('end of input quits like "quit": stdin of the server is closed and it exits 0', async () => {
    const run = await runConsole(['-i', ...fixtureTarget()], { input: '' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/fixture-server exited with code 0 after \d+ ms\./);
  });

  it('exits 1 when the server dies during the session', async () => {
    const run = await runConsole(['-i', ...fixtureTarget('--crash-on-call')], {
      input: lines(
        'init',
        'initialized',
        'call proximos_pases {"norad_id":25544,"estacion":"orbiteye-mx"}',
        'ping',
      ),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('fixture-server exited (code 3); leaving.');
    expect(run.stdout).not.toContain('request ping');
  });
});
