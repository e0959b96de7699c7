import { describe, expect, it } from 'vitest';
import type { StdioPeer, WireMessage } from './stdio-peer.js';
import { trackPeers } from './track-peers.js';

export interface ToolCallSample {
  tool: string;
  arguments: Record<string, unknown>;
}

export interface ProtocolSuiteOptions {
  /** Spawns the built server over stdio, with extra command-line arguments. */
  spawn(args?: string[]): StdioPeer;
  /** A call that succeeds. */
  happy: ToolCallSample;
  /** A call whose arguments violate the inputSchema, and the words its message must contain. */
  schemaViolation: ToolCallSample & { mentions: string[] };
  /** A call that fails in the domain (an `isError` result). */
  domainError: ToolCallSample & { mentions: RegExp };
  /** Names of tools that must disappear under --read-only (empty when the server has none). */
  writeTools: string[];
  /**
   * Every tool the server may list (mcp-kit's discovery tools included), as its sources describe it:
   * `describeTool` run from source, where the JSON Schemas are converted on the spot. The built bin
   * carries them converted by its build, and must list exactly the same. Every app passes it; mcp-kit's
   * fixture, bundled without that build step, does not.
   */
  sourceTools?: ReadonlyArray<{ name: string; inputSchema: unknown; outputSchema?: unknown }>;
}

const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

function toolText(response: WireMessage): string {
  const result = response.result as { content?: Array<{ text?: string }> };
  return (result.content ?? []).map((c) => c.text ?? '').join('\n');
}

/**
 * The protocol rules of DESIGN.md §3, asserted against a real server process over real stdio. Every
 * server of the cluster runs this same suite.
 */
export function describeProtocolRules(name: string, options: ProtocolSuiteOptions): void {
  describe(`${name}: protocol rules over stdio`, () => {
    // Rule 4 for every test: whatever happened, stdout carried JSON-RPC and nothing else.
    const track = trackPeers();
    const spawn = (args?: string[]) => track(options.spawn(args));

    describe('rule 1: lifecycle order', () => {
      it('refuses a request before initialize with -32000 and runs nothing', async () => {
        const peer = spawn();
        const response = await peer.request('tools/call', {
          name: options.happy.tool,
          arguments: options.happy.arguments,
        });
        expect(response.error).toEqual({ code: -32000, message: 'Server not initialized' });
        expect(response.result).toBeUndefined();
        const list = await peer.request('tools/list');
        expect(list.error?.code).toBe(-32000);
      });

      it('answers ping before initialize', async () => {
        const peer = spawn();
        const response = await peer.request('ping');
        expect(response.result).toEqual({});
      });

      it('refuses requests between initialize and notifications/initialized', async () => {
        const peer = spawn();
        const init = await peer.request('initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '0' },
        });
        expect(init.result).toBeDefined();
        const early = await peer.request('tools/list');
        expect(early.error?.code).toBe(-32000);
        peer.notify('notifications/initialized');
        const list = await peer.request('tools/list');
        expect(list.result).toBeDefined();
      });

      it('rejects a second initialize on the same session', async () => {
        const peer = spawn();
        await peer.initialize();
        const again = await peer.request('initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 't', version: '0' },
        });
        expect(again.error?.code).toBe(-32600);
        expect(again.result).toBeUndefined();
        const list = await peer.request('tools/list');
        expect(list.result).toBeDefined();
      });
    });

    describe('rule 2: version negotiation', () => {
      it.each(VERSIONS)('echoes the supported version %s', async (version) => {
        const peer = spawn();
        const response = await peer.initialize(version);
        expect((response.result as { protocolVersion: string }).protocolVersion).toBe(version);
      });

      it.each(['2099-01-01', '2024-10-07', 'latest'])(
        'answers the newest version to a client asking %s',
        async (version) => {
          const peer = spawn();
          const response = await peer.initialize(version);
          expect((response.result as { protocolVersion: string }).protocolVersion).toBe('2025-11-25');
        },
      );

      it('declares its capabilities and identity', async () => {
        const peer = spawn();
        const result = (await peer.initialize()).result as {
          capabilities: Record<string, unknown>;
          serverInfo: { name: string; version: string };
        };
        expect(result.capabilities).toHaveProperty('tools');
        expect(result.capabilities).toHaveProperty('logging');
        expect(result.serverInfo.name).toMatch(/-mcp$/);
      });
    });

    describe('rule 3: two layers of errors', () => {
      it('answers an unparseable line with -32700 and id null, then lives on', async () => {
        const peer = spawn();
        peer.send('{"jsonrpc": "2.0", "id": 1, "method": ');
        const error = await peer.waitFor((m) => m.error?.code === -32700);
        expect(error.id).toBeNull();
        expect((await peer.request('ping')).result).toEqual({});
      });

      it.each([
        ['an object without jsonrpc fields', '{"hola": 1}', null],
        ['a bare string', '"hola"', null],
        ['a batch', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]', null],
        ['a request with a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
        ['a message with an id and nothing else', '{"jsonrpc":"2.0","id":77}', 77],
        ['a request of JSON-RPC 1.0', '{"jsonrpc":"1.0","id":78,"method":"ping"}', 78],
      ])('answers %s with -32600', async (_label, line, id) => {
        const peer = spawn();
        peer.send(line);
        const error = await peer.waitFor((m) => m.error?.code === -32600);
        expect(error.id).toBe(id);
      });

      it('never answers a notification, even a malformed or unknown one', async () => {
        const peer = spawn();
        await peer.initialize();
        peer.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"bad":true}}}');
        peer.send('{"jsonrpc":"2.0","method":"notifications/no_existe"}');
        peer.send('{"jsonrpc":"2.0","method":"notifications/progress","params":[1,2]}');
        peer.send('{"jsonrpc":"1.0","method":"notifications/initialized"}');
        const arrived = await peer.quietFor(400);
        expect(arrived).toEqual([]);
      });

      it('answers an unknown method with -32601', async () => {
        const peer = spawn();
        await peer.initialize();
        expect((await peer.request('metodo/inexistente')).error?.code).toBe(-32601);
      });

      it('answers an unknown tool with -32602, not a tool result', async () => {
        const peer = spawn();
        await peer.initialize('2025-11-25');
        const response = await peer.request('tools/call', { name: 'no_existe', arguments: {} });
        expect(response.error?.code).toBe(-32602);
        expect(response.error?.message).toContain('no_existe');
      });

      it('answers malformed params with -32602 and no schema dump', async () => {
        const peer = spawn();
        await peer.initialize();
        const response = await peer.request('tools/call', { arguments: {} });
        expect(response.error?.code).toBe(-32602);
        expect(response.error?.message).not.toMatch(/invalid_type|\[\s*\{/);
        const bad = await peer.request('tools/call', { name: options.happy.tool, arguments: [1, 2] });
        expect(bad.error?.code).toBe(-32602);
      });

      for (const version of ['2025-06-18', '2025-03-26', '2024-11-05']) {
        it(`reports a schema violation as JSON-RPC -32602 under ${version}`, async () => {
          const peer = spawn();
          await peer.initialize(version);
          const response = await peer.request('tools/call', {
            name: options.schemaViolation.tool,
            arguments: options.schemaViolation.arguments,
          });
          expect(response.result).toBeUndefined();
          expect(response.error?.code).toBe(-32602);
          for (const word of options.schemaViolation.mentions)
            expect(response.error?.message).toContain(word);
        });
      }

      it('reports a schema violation as an isError result under 2025-11-25 (SEP-1303)', async () => {
        const peer = spawn();
        await peer.initialize('2025-11-25');
        const response = await peer.request('tools/call', {
          name: options.schemaViolation.tool,
          arguments: options.schemaViolation.arguments,
        });
        expect(response.error).toBeUndefined();
        expect((response.result as { isError?: boolean }).isError).toBe(true);
        for (const word of options.schemaViolation.mentions) expect(toolText(response)).toContain(word);
      });

      it('reports a domain error as an isError result under every version', async () => {
        for (const version of ['2025-06-18', '2025-11-25']) {
          const peer = spawn();
          await peer.initialize(version);
          const response = await peer.request('tools/call', {
            name: options.domainError.tool,
            arguments: options.domainError.arguments,
          });
          expect(response.error).toBeUndefined();
          expect((response.result as { isError?: boolean }).isError).toBe(true);
          expect(toolText(response)).toMatch(options.domainError.mentions);
        }
      });

      it('answers every request with a valid id exactly once', async () => {
        const peer = spawn();
        await peer.initialize();
        const ids = [101, 'b-102', 103, 104, 105, 106];
        peer.send({ jsonrpc: '2.0', id: 101, method: 'ping' });
        peer.send({ jsonrpc: '2.0', id: 'b-102', method: 'tools/list' });
        peer.send({
          jsonrpc: '2.0',
          id: 103,
          method: 'tools/call',
          params: { name: options.happy.tool, arguments: options.happy.arguments },
        });
        peer.send({ jsonrpc: '2.0', id: 104, method: 'tools/call', params: { name: 'no_existe' } });
        peer.send({ jsonrpc: '2.0', id: 105, method: 'no/existe' });
        peer.send({
          jsonrpc: '2.0',
          id: 106,
          method: 'tools/call',
          params: { name: options.schemaViolation.tool, arguments: options.schemaViolation.arguments },
        });
        await peer.waitFor((m) => m.id === 106);
        await Promise.all(ids.map((id) => peer.waitFor((m) => m.id === id)));
        await peer.quietFor(200);
        for (const id of ids) expect(peer.received.filter((m) => m.id === id)).toHaveLength(1);
      });

      it('answers a line over the size limit with an error and lives on', async () => {
        const peer = spawn(['--max-line-bytes', '2048']);
        await peer.initialize();
        peer.send(
          JSON.stringify({ jsonrpc: '2.0', id: 900, method: 'ping', params: { pad: 'x'.repeat(10_000) } }),
        );
        const error = await peer.waitFor((m) => m.error !== undefined && m.id === null);
        expect(error.error?.message).toMatch(/2048/);
        expect((await peer.request('ping')).result).toEqual({});
      });

      it('answers a 1 MB resource URI with -32602 naming the bound, then lives on', async () => {
        const peer = spawn();
        await peer.initialize();
        const response = await peer.request('resources/read', { uri: `x://${'a'.repeat(1024 * 1024)}` });
        expect(response.error?.code).toBe(-32602);
        expect(response.error?.message).toContain('8192');
        expect((await peer.request('ping')).result).toEqual({});
      });

      it('survives a message over the default 4 MiB limit', async () => {
        const peer = spawn();
        await peer.initialize();
        peer.write(
          `{"jsonrpc":"2.0","id":901,"method":"ping","params":{"pad":"${'y'.repeat(5 * 1024 * 1024)}"}}\n`,
        );
        const error = await peer.waitFor((m) => m.error !== undefined && m.id === null, 20_000);
        expect(error.error?.message).toMatch(/4194304/);
        expect((await peer.request('ping')).result).toEqual({});
      });
    });

    describe('rule 4: stdout carries protocol only', () => {
      it('prints --version and --help on stderr, never stdout', async () => {
        for (const flag of ['--version', '--help']) {
          const peer = spawn([flag]);
          const exit = await peer.exited;
          expect(exit.code).toBe(0);
          expect(peer.stdoutLines).toEqual([]);
          expect(peer.stderr.length).toBeGreaterThan(0);
        }
      });

      it('fails fast on a bad setting with exit code 2 and one line naming it', async () => {
        const peer = spawn(['--tool-timeout-ms', 'soon']);
        const exit = await peer.exited;
        expect(exit.code).toBe(2);
        expect(peer.stdoutLines).toEqual([]);
        expect(peer.stderr.trim().split('\n')).toHaveLength(1);
        expect(peer.stderr).toContain('--tool-timeout-ms');
        expect(peer.stderr).toContain('soon');
      });

      it('sends logs to the client only after logging/setLevel', async () => {
        const peer = spawn();
        await peer.initialize();
        await peer.request('tools/call', { name: options.happy.tool, arguments: options.happy.arguments });
        expect(peer.received.some((m) => m.method === 'notifications/message')).toBe(false);
        expect((await peer.request('logging/setLevel', { level: 'debug' })).result).toEqual({});
        await peer.request('tools/call', { name: options.happy.tool, arguments: options.happy.arguments });
        const log = await peer.waitFor((m) => m.method === 'notifications/message');
        expect((log.params as { level: string }).level).toMatch(/debug|info/);
      });
    });

    describe('rule 5: process lifecycle', () => {
      it('exits with code 0 within 2 s when stdin closes', async () => {
        const peer = spawn();
        await peer.initialize();
        const exit = await peer.close();
        expect(exit.code).toBe(0);
        expect(exit.ms).toBeLessThan(2_000);
      });

      it('writes no notifications/message once stdin has closed (nobody can read them)', async () => {
        const peer = spawn();
        await peer.initialize();
        expect((await peer.request('logging/setLevel', { level: 'debug' })).result).toEqual({});
        const before = peer.received.length;
        const exit = await peer.close();
        expect(exit.code).toBe(0);
        // 'exit' can come before the last of stdout has been read: wait for the pipe itself to close.
        if (!peer.child.stdout.closed)
          await new Promise((resolve) => peer.child.stdout.once('close', resolve));
        expect(peer.received.slice(before).filter((m) => m.method === 'notifications/message')).toEqual([]);
      });

      it.each(['SIGTERM', 'SIGINT'] as const)('exits with code 0 within 2 s on %s', async (signal) => {
        const peer = spawn();
        await peer.initialize();
        const exit = await peer.kill(signal);
        expect(exit.code).toBe(0);
        expect(exit.ms).toBeLessThan(2_000);
      });
    });

    describe('rule 7: every tool declares itself', () => {
      it('lists tools with title, description, four annotations and an object inputSchema', async () => {
        const peer = spawn();
        await peer.initialize();
        const { tools } = (await peer.request('tools/list')).result as {
          tools: Array<Record<string, unknown>>;
        };
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          expect(tool.name).toMatch(/^[a-z][a-z0-9_]*$/);
          expect(typeof tool.title).toBe('string');
          expect(String(tool.description).length).toBeGreaterThan(20);
          expect(tool.inputSchema).toMatchObject({ type: 'object' });
          const annotations = tool.annotations as Record<string, unknown>;
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']) {
            expect(typeof annotations[hint]).toBe('boolean');
          }
        }
      });

      const sourceTools = options.sourceTools;
      if (sourceTools)
        it('lists the JSON Schemas its sources convert to, though the bin carries them converted at build', async () => {
          const source = new Map(sourceTools.map((tool) => [tool.name, tool]));
          const listed: Array<{ name: string; inputSchema: unknown; outputSchema?: unknown }> = [];
          for (const args of [[], ['--dynamic-toolsets']]) {
            const peer = spawn(args);
            await peer.initialize();
            const { tools } = (await peer.request('tools/list')).result as { tools: typeof listed };
            listed.push(...tools);
          }
          expect(listed.map((t) => t.name)).toContain('activar_grupo');
          for (const tool of listed) {
            const expected = source.get(tool.name);
            expect(expected, `${tool.name} is not among sourceTools`).toBeDefined();
            expect({ name: tool.name, input: tool.inputSchema, output: tool.outputSchema }).toEqual({
              name: tool.name,
              input: expected?.inputSchema,
              output: expected?.outputSchema,
            });
          }
        });

      it('returns structuredContent and a text block from a tool with an outputSchema', async () => {
        const peer = spawn();
        await peer.initialize();
        const { tools } = (await peer.request('tools/list')).result as {
          tools: Array<{ name: string; outputSchema?: unknown }>;
        };
        const response = await peer.request('tools/call', {
          name: options.happy.tool,
          arguments: options.happy.arguments,
        });
        const result = response.result as {
          content: Array<{ type: string; text: string }>;
          structuredContent?: unknown;
          isError?: boolean;
        };
        expect(result.isError).toBeFalsy();
        expect(result.content[0]?.type).toBe('text');
        expect(result.content[0]?.text.length).toBeGreaterThan(0);
        if (tools.find((t) => t.name === options.happy.tool)?.outputSchema) {
          expect(result.structuredContent).toBeTypeOf('object');
        }
      });
    });

    describe('rule 8: least privilege', () => {
      it('drops write tools under --read-only', async () => {
        const peer = spawn(['--read-only']);
        await peer.initialize();
        const { tools } = (await peer.request('tools/list')).result as {
          tools: Array<{ name: string; annotations: { readOnlyHint: boolean } }>;
        };
        for (const tool of tools) expect(tool.annotations.readOnlyHint).toBe(true);
        for (const name of options.writeTools) {
          expect(tools.map((t) => t.name)).not.toContain(name);
          const call = await peer.request('tools/call', { name, arguments: {} });
          expect(call.error?.code).toBe(-32602);
        }
      });
    });
  });
}
