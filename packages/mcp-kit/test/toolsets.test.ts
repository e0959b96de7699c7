import { StdioPeer } from '@code-cluster/testkit';
import { HttpServerProcess } from '@code-cluster/testkit/http';
import { connectInMemory } from '@code-cluster/testkit/in-memory';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createKitServer,
  defineTool,
  Logger,
  renderToolsetsTable,
  type ServerDefinition,
  type SessionControl,
  selectToolsets,
} from '../src/index.js';
import { FIXTURE_BIN } from './global-setup.js';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const tool = (name: string, toolset: string) =>
  defineTool({
    name,
    title: name,
    toolset,
    description: `Devuelve ${name}. Úsala para probar.`,
    input: z.strictObject({}),
    annotations: read,
    async handler() {
      return { text: name };
    },
  });

const definition: ServerDefinition<Record<string, never>> = {
  name: 'grupos-mcp',
  version: '0.0.0',
  title: 'Grupos',
  instructions: 'Servidor de prueba.',
  tools: [tool('uno', 'primero'), tool('dos', 'primero'), tool('tres', 'segundo')],
};

async function session(options: { dynamicToolsets?: boolean; toolsets?: string[] } = {}) {
  const kit = createKitServer(definition, {
    deps: {},
    logger: new Logger('grupos-mcp', 'error'),
    ...options,
  });
  const connection = await connectInMemory(kit);
  const changes: number[] = [];
  connection.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes.push(changes.length + 1);
  });
  return { kit, ...connection, changes };
}

const names = async (client: Awaited<ReturnType<typeof session>>['client']) =>
  (await client.listTools()).tools.map((t) => t.name);

async function unknownTool(call: Promise<unknown>): Promise<McpError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(-32602);
  return error as McpError;
}

describe('per-session tool sets', () => {
  it('declares tools.listChanged false on a server whose tools never change', async () => {
    const { client, close } = await session();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: false });
    expect(await names(client)).toEqual(['uno', 'dos', 'tres']);
    await close();
  });

  it('starts a --dynamic-toolsets session with the discovery tools only, declaring listChanged', async () => {
    const { client, close } = await session({ dynamicToolsets: true });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(await names(client)).toEqual(['listar_grupos', 'activar_grupo']);
    const error = await unknownTool(client.callTool({ name: 'uno', arguments: {} }));
    expect(error.message).toContain("Herramienta desconocida: 'uno'");
    const groups = await client.callTool({ name: 'listar_grupos', arguments: {} });
    expect(groups.structuredContent).toEqual({
      grupos: [
        { grupo: 'primero', activo: false, herramientas: ['uno', 'dos'] },
        { grupo: 'segundo', activo: false, herramientas: ['tres'] },
      ],
    });
    await close();
  });

  it('activar_grupo shows the group to this session only, with notifications/tools/list_changed', async () => {
    const first = await session({ dynamicToolsets: true });
    const second = await session({ dynamicToolsets: true });
    const result = await first.client.callTool({ name: 'activar_grupo', arguments: { grupo: 'primero' } });
    expect(result.structuredContent).toEqual({
      grupo: 'primero',
      activado: true,
      herramientas: ['uno', 'dos'],
    });
    await expect.poll(() => first.changes.length).toBe(1);
    expect(await names(first.client)).toEqual(['listar_grupos', 'activar_grupo', 'uno', 'dos']);
    expect((await first.client.callTool({ name: 'uno', arguments: {} })).content).toEqual([
      { type: 'text', text: 'uno' },
    ]);

    // Activating it again changes nothing, so nothing is announced.
    const again = await first.client.callTool({ name: 'activar_grupo', arguments: { grupo: 'primero' } });
    expect((again.structuredContent as { activado: boolean }).activado).toBe(false);
    await first.client.listTools();
    expect(first.changes).toHaveLength(1);

    expect(second.changes).toHaveLength(0);
    expect(await names(second.client)).toEqual(['listar_grupos', 'activar_grupo']);
    await unknownTool(second.client.callTool({ name: 'uno', arguments: {} }));
    await first.close();
    await second.close();
  });

  it('answers an unknown group with a domain error naming the groups', async () => {
    const { client, close, changes } = await session({ dynamicToolsets: true });
    const result = await client.callTool({ name: 'activar_grupo', arguments: { grupo: 'tercero' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: "No existe el grupo 'tercero'. Grupos disponibles: primero, segundo (los lista listar_grupos).",
      },
    ]);
    expect(changes).toHaveLength(0);
    await close();
  });

  it('a tool switched off mid-session is gone from tools/list and unknown to tools/call (-32602)', async () => {
    const { kit, client, close, changes } = await session({ dynamicToolsets: true });
    await client.callTool({ name: 'activar_grupo', arguments: { grupo: 'segundo' } });
    expect(await names(client)).toContain('tres');
    expect(kit.tools.setEnabled(['tres'], false)).toBe(true);
    await expect.poll(() => changes.length).toBe(2);
    expect(await names(client)).toEqual(['listar_grupos', 'activar_grupo']);
    const error = await unknownTool(client.callTool({ name: 'tres', arguments: {} }));
    expect(error.message).toContain('Herramientas disponibles: listar_grupos, activar_grupo.');
    await close();
  });

  it('sends no list_changed before the handshake is over', async () => {
    const kit = createKitServer(definition, {
      deps: {},
      logger: new Logger('grupos-mcp', 'error'),
      dynamicToolsets: true,
    });
    // Before connect: the session is not initialized, so the change is silent (the list itself changes).
    kit.tools.enableGroup('segundo');
    const { client, close } = await connectInMemory(kit);
    const changes: unknown[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => {
      changes.push(n);
    });
    expect(await names(client)).toEqual(['listar_grupos', 'activar_grupo', 'tres']);
    expect(changes).toHaveLength(0);
    await close();
  });

  it('refuses to change a list it declared fixed', async () => {
    const kit = createKitServer(definition, { deps: {}, logger: new Logger('grupos-mcp', 'error') });
    const { close } = await connectInMemory(kit);
    expect(() => kit.tools.setEnabled(['uno'], false)).toThrow(
      'grupos-mcp changed its tools without declaring listChanged',
    );
    await close();
  });

  it('--toolsets keeps only the named groups', async () => {
    const { client, close } = await session({ toolsets: ['segundo'] });
    expect(await names(client)).toEqual(['tres']);
    await unknownTool(client.callTool({ name: 'uno', arguments: {} }));
    await close();
  });

  it("checks --toolsets names against the server's groups", () => {
    expect(selectToolsets(definition.tools, [])).toEqual({ ok: true, toolsets: ['primero', 'segundo'] });
    expect(selectToolsets(definition.tools, ['all'])).toEqual({ ok: true, toolsets: ['primero', 'segundo'] });
    expect(selectToolsets(definition.tools, ['segundo'])).toEqual({ ok: true, toolsets: ['segundo'] });
    expect(selectToolsets(definition.tools, ['segundo', 'otro'])).toEqual({
      ok: false,
      message:
        "invalid value for --toolsets (MCP_TOOLSETS): unknown toolset 'otro'; valid toolsets are primero, segundo (or all)",
    });
  });

  it('measures tools/list per group as the bytes a client receives', async () => {
    const { client, close } = await session({ toolsets: ['segundo'] });
    const listing = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify({ tools: listing.tools }), 'utf8');
    const table = renderToolsetsTable(definition.tools as never);
    expect(table).toContain(`| \`segundo\` | \`tres\` | ${bytes} | ${Math.ceil(bytes / 4)} |`);
    await close();
  });
});

describe('resources and prompts list_changed', () => {
  const withLists = (changes?: ServerDefinition<unknown>['changes']) => {
    let control: SessionControl | undefined;
    const kit = createKitServer<unknown>(
      {
        ...(definition as ServerDefinition<unknown>),
        ...(changes ? { changes } : {}),
        sessionDeps: (deps, session) => {
          control = session;
          return deps;
        },
        resources: (server) =>
          server.registerResource('nota', 'nota://uno', { mimeType: 'text/plain' }, async (uri) => ({
            contents: [{ uri: uri.href, text: 'uno' }],
          })),
        prompts: (server) =>
          server.registerPrompt('saludo', { description: 'Saluda.' }, async () => ({
            messages: [{ role: 'user', content: { type: 'text', text: 'hola' } }],
          })),
      },
      { deps: {}, logger: new Logger('grupos-mcp', 'error') },
    );
    return { kit, control: () => control! };
  };

  it('declares listChanged false for resources and prompts unless the definition says they change', async () => {
    const { kit } = withLists();
    const { client, close } = await connectInMemory(kit);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toEqual({ listChanged: false });
    expect(capabilities?.prompts).toEqual({ listChanged: false });
    await close();
  });

  it('sends notifications/resources/list_changed to the session whose state changed', async () => {
    const { kit, control } = withLists({ resources: true });
    const { client, close } = await connectInMemory(kit);
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true });
    expect(client.getServerCapabilities()?.prompts).toEqual({ listChanged: false });
    let received = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      received++;
    });
    control().resourcesChanged();
    await expect.poll(() => received).toBe(1);
    expect(() => control().promptsChanged()).toThrow('without declaring listChanged');
    await close();
  });
});

describe('--toolsets and --dynamic-toolsets over the built bin', () => {
  const track = trackPeers();
  const spawn = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    // The developer's own MCP_TOOLSETS / MCP_DYNAMIC_TOOLSETS must not change what a test sees.
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.includes('TOOLSETS')),
    );
    const peer = StdioPeer.spawn(process.execPath, [FIXTURE_BIN, ...args], { env: { ...clean, ...env } });
    track(peer);
    return peer;
  };
  const listed = async (peer: StdioPeer) =>
    ((await peer.request('tools/list')).result as { tools: Array<{ name: string }> }).tools.map(
      (t) => t.name,
    );

  it('offers only the groups --toolsets names (and MCP_TOOLSETS when the flag is absent)', async () => {
    const flag = spawn(['--toolsets', 'eco,escritura']);
    await flag.initialize();
    expect(await listed(flag)).toEqual(['eco', 'escribir']);
    const env = spawn([], { MCP_TOOLSETS: 'eco' });
    await env.initialize();
    expect(await listed(env)).toEqual(['eco']);
  });

  it('exits 2 on an unknown toolset, naming the valid ones', async () => {
    const peer = spawn(['--toolsets', 'eco,nada']);
    expect((await peer.exited).code).toBe(2);
    expect(peer.stderr).toContain(
      "fixture-mcp: invalid value for --toolsets (MCP_TOOLSETS): unknown toolset 'nada'; valid toolsets are eco, pruebas, escritura (or all)",
    );
    expect(peer.stdoutLines).toEqual([]);
  });

  it('refuses --dynamic-toolsets on a stateless HTTP server (exit 2)', async () => {
    const peer = spawn(['--dynamic-toolsets', '--transport', 'http', '--port', '0', '--stateless']);
    expect((await peer.exited).code).toBe(2);
    expect(peer.stderr).toContain('--dynamic-toolsets needs sessions');
  });

  it('runs the --dynamic-toolsets flow on the wire: discovery, list_changed, the new list', async () => {
    const peer = spawn([], { MCP_DYNAMIC_TOOLSETS: '1' });
    const init = await peer.initialize();
    expect((init.result as { capabilities: { tools: unknown } }).capabilities.tools).toEqual({
      listChanged: true,
    });
    expect(await listed(peer)).toEqual(['listar_grupos', 'activar_grupo']);
    const before = await peer.request('tools/call', { name: 'eco', arguments: { texto: 'hola' } });
    expect(before.error?.code).toBe(-32602);
    await peer.request('tools/call', { name: 'activar_grupo', arguments: { grupo: 'eco' } });
    await peer.waitFor((m) => m.method === 'notifications/tools/list_changed');
    expect(await listed(peer)).toEqual(['listar_grupos', 'activar_grupo', 'eco']);
    const after = await peer.request('tools/call', { name: 'eco', arguments: { texto: 'hola' } });
    expect((after.result as { content: Array<{ text: string }> }).content[0]?.text).toBe('hola');
  });
});

describe('--dynamic-toolsets over Streamable HTTP (built bin): one tool set per Mcp-Session-Id', () => {
  it('activating a group in one session announces it there, on the call stream, and shows nothing to the other', async () => {
    const server = await HttpServerProcess.start(FIXTURE_BIN, ['--dynamic-toolsets']);
    const clients: Client[] = [];
    try {
      const open = async () => {
        const client = new Client({ name: 'toolsets-test', version: '0.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        clients.push(client);
        const changes = { count: 0 };
        client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
          changes.count++;
        });
        return { client, changes };
      };
      const first = await open();
      const second = await open();
      expect(first.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
      await first.client.callTool({ name: 'activar_grupo', arguments: { grupo: 'eco' } });
      // On the call's own SSE stream, so it has arrived by the time the result has.
      expect(first.changes.count).toBe(1);
      expect(await names(first.client)).toEqual(['listar_grupos', 'activar_grupo', 'eco']);
      expect(await names(second.client)).toEqual(['listar_grupos', 'activar_grupo']);
      await unknownTool(second.client.callTool({ name: 'eco', arguments: { texto: 'x' } }));
      expect(second.changes.count).toBe(0);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
      await server.stop('SIGTERM');
    }
  });

  it('with JSON answers (--http-response json), announces it on the session GET stream: a JSON answer carries only the result', async () => {
    const server = await HttpServerProcess.start(FIXTURE_BIN, [
      '--dynamic-toolsets',
      '--http-response',
      'json',
    ]);
    const client = new Client({ name: 'toolsets-test', version: '0.0.0' });
    try {
      let changes = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changes++;
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      await client.callTool({ name: 'activar_grupo', arguments: { grupo: 'eco' } });
      await vi.waitFor(() => expect(changes).toBe(1), { timeout: 5_000 });
      expect(await names(client)).toEqual(['listar_grupos', 'activar_grupo', 'eco']);
    } finally {
      await client.close();
      await server.stop('SIGTERM');
    }
  });
});
