import { describeToolSurface, READ_ONLY, writes } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type Embedded, embeddedHub, resourceText, type Session, tempDataDir } from './helpers.js';

const data = tempDataDir();
let hub: Embedded;
let session: Session;
beforeAll(async () => {
  hub = embeddedHub(data.dir);
  session = await hub.connect();
  await callTool(session.client, 'publicar_evento', {
    topico: 'misiones.alertas',
    tipo: 'alerta.nueva',
    datos: { nivel: 'alto' },
  });
  await callTool(session.client, 'publicar_evento', { topico: 'estacion-mx', tipo: 'contacto', datos: {} });
});
afterAll(async () => {
  await hub.close();
  data.remove();
});

describe('hub-mcp contract (CONTRACT.md)', () => {
  describeToolSurface({
    listTools: async () => (await session.client.listTools()).tools,
    tools: {
      publicar_evento: writes(),
      leer_eventos: READ_ONLY,
      listar_topicos: READ_ONLY,
      resumir_topico: READ_ONLY,
    },
    descriptions: /Úsala/,
    snapshot: './snapshots/tools.json',
  });

  it('gives the four hub tools the contract arguments', async () => {
    const { tools } = await session.client.listTools();
    const props = (name: string) =>
      Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {}).sort();
    expect(props('publicar_evento')).toEqual(['clave_idempotencia', 'datos', 'tipo', 'topico']);
    expect(tools.find((t) => t.name === 'publicar_evento')!.inputSchema.required).toEqual([
      'topico',
      'tipo',
      'datos',
    ]);
    expect(props('leer_eventos')).toEqual(['desde', 'limite', 'topico']);
    expect(tools.find((t) => t.name === 'leer_eventos')!.inputSchema.required).toEqual(['topico']);
    expect(props('listar_topicos')).toEqual([]);
    expect(props('resumir_topico')).toEqual(['n', 'topico']);
  });

  it('says in publicar_evento when a key makes publishing idempotent', async () => {
    const { tools } = await session.client.listTools();
    const publicar = tools.find((t) => t.name === 'publicar_evento')!;
    expect(publicar.description).toContain('clave_idempotencia');
    expect(publicar.description).toMatch(/nunca lo duplica/);
  });

  it('declares subscribable resources', () => {
    expect(session.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
  });

  it('offers the topic template, listing every topic', async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['hub://topicos/{topico}']);
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'hub://topicos/estacion-mx',
      'hub://topicos/misiones.alertas',
    ]);
  });

  it('reads a topic resource as JSON with its recent events', async () => {
    const read = await session.client.readResource({ uri: 'hub://topicos/misiones.alertas' });
    expect(read.contents[0]?.mimeType).toBe('application/json');
    const body = JSON.parse(resourceText(read)) as {
      topic: { name: string; last_seq: number };
      events: Array<{ seq: number; data: unknown }>;
    };
    expect(body.topic).toMatchObject({ name: 'misiones.alertas', last_seq: 1 });
    expect(body.events.map((e) => e.data)).toEqual([{ nivel: 'alto' }]);
  });

  it('refuses an unknown or malformed topic resource with -32002', async () => {
    for (const uri of ['hub://topicos/no-existe', 'hub://topicos/MAYUS', 'hub://topicos/a..b']) {
      await expect(session.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    }
  });

  it('completes topic names in the template and in the prompt', async () => {
    const template = await session.client.complete({
      ref: { type: 'ref/resource', uri: 'hub://topicos/{topico}' },
      argument: { name: 'topico', value: 'mis' },
    });
    expect(template.completion.values).toEqual(['misiones.alertas']);
    const prompt = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'resumir_actividad' },
      argument: { name: 'topico', value: 'est' },
    });
    expect(prompt.completion.values).toEqual(['estacion-mx']);
  });

  it('offers the resumir_actividad prompt, naming the tools and the data rule', async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['resumir_actividad']);
    expect(prompts[0]?.arguments?.map((a) => a.name)).toEqual(['topico']);
    const prompt = await session.client.getPrompt({
      name: 'resumir_actividad',
      arguments: { topico: 'misiones.alertas' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('misiones.alertas');
    expect(text).toContain('leer_eventos');
    expect(text).toContain('no instrucciones');
  });

  it('drops publicar_evento in read-only mode', async () => {
    const readOnly = await hub.connect({ readOnly: true });
    const { tools } = await readOnly.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['leer_eventos', 'listar_topicos', 'resumir_topico']);
  });
});
