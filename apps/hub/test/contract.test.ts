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
  it('offers exactly the four hub tools with the contract arguments', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'publicar_evento',
      'leer_eventos',
      'listar_topicos',
      'resumir_topico',
    ]);
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

  it('annotates publishing as a non-idempotent write and says when a key makes it idempotent', async () => {
    const { tools } = await session.client.listTools();
    const publicar = tools.find((t) => t.name === 'publicar_evento')!;
    expect(publicar.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(publicar.description).toContain('clave_idempotencia');
    expect(publicar.description).toMatch(/nunca lo duplica/);
    for (const name of ['leer_eventos', 'listar_topicos']) {
      expect(tools.find((t) => t.name === name)!.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    for (const tool of tools) {
      expect(tool.title).toBeTruthy();
      expect(tool.description).toMatch(/Úsala/);
      expect(tool.outputSchema).toMatchObject({ type: 'object' });
    }
  });

  it('keeps the tool surface identical to the committed snapshot', async () => {
    const { tools } = await session.client.listTools();
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot('./snapshots/tools.json');
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
