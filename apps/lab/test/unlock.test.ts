import { join } from 'node:path';
import { createLabSystem, type LabSystem } from '@code-cluster/systems/lab';
import { type StdioPeer, spawnServerWithData } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BAD_TRANSCRIPT,
  callTool,
  connectLab,
  GOOD_TRANSCRIPT,
  passHandshake,
  tempDataDir,
  textOf,
} from './helpers.js';

const HANDSHAKE = 'lab://laboratorios/mcp-handshake/enunciado';
const ESQUEMAS = 'lab://laboratorios/mcp-esquemas/enunciado';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** One lab suite (a temp dir) that several MCP sessions share, as one server process's sessions would. */
function suite(): LabSystem {
  const data = tempDataDir();
  const system = createLabSystem({ file: join(data.dir, 'lab.db') });
  cleanup.push(data.remove, () => system.close());
  return system;
}

/** A new MCP session over the suite, counting the resources/list_changed it receives. */
async function session(system: LabSystem) {
  const connection = await connectLab(system);
  cleanup.push(connection.close);
  const changed = { count: 0 };
  connection.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    changed.count++;
  });
  return { client: connection.client, changed };
}

const listed = async (client: Client) => (await client.listResources()).resources.map((r) => r.uri);
const completions = async (client: Client) =>
  (
    await client.complete({
      ref: { type: 'ref/prompt', name: 'pista_laboratorio' },
      argument: { name: 'laboratorio', value: 'mcp' },
    })
  ).completion.values;

describe('labs unlock in order, per student', () => {
  it('declares that its resource list changes, and nothing else', async () => {
    const { client } = await session(suite());
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.resources).toEqual({ listChanged: true });
    expect(capabilities?.prompts).toEqual({ listChanged: false });
    expect(capabilities?.tools).toEqual({ listChanged: false });
  });

  it('refuses a locked lab naming what to pass first, and opens it with list_changed once passed', async () => {
    const { client, changed } = await session(suite());
    expect(await listed(client)).toEqual([HANDSHAKE]);
    expect(await completions(client)).toEqual(['mcp-handshake']);

    const locked = await callTool(client, 'iniciar_laboratorio', {
      laboratorio: 'mcp-esquemas',
      estudiante: 'ana-garcia',
    });
    expect(locked.isError).toBe(true);
    expect(textOf(locked)).toBe(
      "El laboratorio 'mcp-esquemas' aún está bloqueado para ana-garcia: antes hay que aprobar " +
        '\'mcp-handshake\'. Empieza por iniciar_laboratorio {laboratorio: "mcp-handshake", estudiante: ' +
        '"ana-garcia"}, envía la entrega con enviar_entrega y, cuando resultado_entrega diga APROBADA, ' +
        "'mcp-esquemas' se abrirá.",
    );
    // Naming ana changed nothing that is listed: no notification.
    expect(changed.count).toBe(0);

    const passed = await passHandshake(client, 'ana-garcia');
    expect(textOf(passed)).toContain("Desbloqueado para ana-garcia: 'mcp-esquemas'.");
    await expect.poll(() => changed.count).toBe(1);
    expect(await listed(client)).toEqual([HANDSHAKE, ESQUEMAS]);
    expect(await completions(client)).toEqual(['mcp-handshake', 'mcp-esquemas']);
    const opened = await callTool(client, 'iniciar_laboratorio', {
      laboratorio: 'mcp-esquemas',
      estudiante: 'ana-garcia',
    });
    expect(opened.isError).toBeFalsy();
    // Passing it again opens nothing new.
    const again = await passHandshake(client, 'ana-garcia');
    expect(textOf(again)).not.toContain('Desbloqueado');
    expect(changed.count).toBe(1);
  });

  it('does not unlock anything for a failed attempt', async () => {
    const { client, changed } = await session(suite());
    const started = await callTool(client, 'iniciar_laboratorio', {
      laboratorio: 'mcp-handshake',
      estudiante: 'ana-garcia',
    });
    const { sesion_id } = started.structuredContent as { sesion_id: string };
    const sent = await callTool(client, 'enviar_entrega', { sesion_id, contenido: BAD_TRANSCRIPT });
    const { entrega_id } = sent.structuredContent as { entrega_id: string };
    const result = await callTool(client, 'resultado_entrega', { entrega_id });
    expect((result.structuredContent as { aprobada: boolean }).aprobada).toBe(false);
    expect(changed.count).toBe(0);
    expect(await listed(client)).toEqual([HANDSHAKE]);
  });

  it('a new session sees the student progress from the store once it names the student', async () => {
    const system = suite();
    const first = await session(system);
    await passHandshake(first.client, 'ana-garcia');

    const second = await session(system);
    // Before it names anybody, a session is nobody's: only the first lab is listed.
    expect(await listed(second.client)).toEqual([HANDSHAKE]);
    const opened = await callTool(second.client, 'iniciar_laboratorio', {
      laboratorio: 'mcp-esquemas',
      estudiante: 'ana-garcia',
    });
    expect(opened.isError).toBeFalsy();
    await expect.poll(() => second.changed.count).toBe(1);
    expect(await listed(second.client)).toEqual([HANDSHAKE, ESQUEMAS]);

    // The session follows the student it last named: bruno has passed nothing.
    const bruno = await callTool(second.client, 'iniciar_laboratorio', {
      laboratorio: 'mcp-esquemas',
      estudiante: 'bruno-diaz',
    });
    expect(bruno.isError).toBe(true);
    expect(textOf(bruno)).toContain('bloqueado para bruno-diaz');
    await expect.poll(() => second.changed.count).toBe(2);
    expect(await listed(second.client)).toEqual([HANDSHAKE]);
    // The first session, still ana's, is untouched.
    expect(await listed(first.client)).toEqual([HANDSHAKE, ESQUEMAS]);
  });
});

describe('labs unlock across processes (built bin, one data dir)', () => {
  const track = trackPeers();

  async function call(peer: StdioPeer, name: string, args: Record<string, unknown>) {
    const response = await peer.request('tools/call', { name, arguments: args });
    if (!response.result) throw new Error(`${name} failed: ${JSON.stringify(response)}\n${peer.stderr}`);
    return response.result as { isError?: boolean; structuredContent: Record<string, string | boolean> };
  }
  const uris = async (peer: StdioPeer) =>
    ((await peer.request('resources/list')).result as { resources: Array<{ uri: string }> }).resources.map(
      (r) => r.uri,
    );

  it('sends resources/list_changed on the wire when a pass unlocks a lab, and a new process sees it', async () => {
    const data = tempDataDir();
    cleanup.push(data.remove);
    const first = track(spawnServerWithData('lab', data.dir));
    await first.initialize();
    const started = await call(first, 'iniciar_laboratorio', {
      laboratorio: 'mcp-handshake',
      estudiante: 'carla-mendez',
    });
    expect(started.isError, JSON.stringify(started)).toBeFalsy();
    const { sesion_id } = started.structuredContent;
    const sent = await call(first, 'enviar_entrega', { sesion_id, contenido: GOOD_TRANSCRIPT });
    const { entrega_id } = sent.structuredContent;
    const graded = await call(first, 'resultado_entrega', { entrega_id });
    expect(graded.structuredContent.aprobada).toBe(true);
    await first.waitFor((m) => m.method === 'notifications/resources/list_changed');
    expect(await uris(first)).toEqual([HANDSHAKE, ESQUEMAS]);
    await first.close();

    const second = track(spawnServerWithData('lab', data.dir));
    await second.initialize();
    expect(await uris(second)).toEqual([HANDSHAKE]);
    const opened = await call(second, 'iniciar_laboratorio', {
      laboratorio: 'mcp-esquemas',
      estudiante: 'carla-mendez',
    });
    expect(opened.isError).toBeFalsy();
    await second.waitFor((m) => m.method === 'notifications/resources/list_changed');
    expect(await uris(second)).toEqual([HANDSHAKE, ESQUEMAS]);
  });
});
