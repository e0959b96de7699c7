import { describeToolSurface, READ_ONLY, writes } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectLab, type Embedded, embeddedLab, tempDataDir } from './helpers.js';

const data = tempDataDir();
let lab: Embedded;
beforeAll(async () => {
  lab = await embeddedLab(data.dir);
});
afterAll(async () => {
  await lab.close();
  data.remove();
});

describe('lab-mcp contract (CONTRACT.md)', () => {
  describeToolSurface({
    listTools: async () => (await lab.client.listTools()).tools,
    tools: {
      listar_laboratorios: READ_ONLY,
      iniciar_laboratorio: writes(),
      enviar_entrega: writes(),
      resultado_entrega: READ_ONLY,
    },
    descriptions: /Úsala/,
    snapshot: './snapshots/tools.json',
  });

  it('gives the four lab tools the contract arguments', async () => {
    const { tools } = await lab.client.listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)!.inputSchema;
    expect(Object.keys(schema('listar_laboratorios').properties ?? {})).toEqual([]);
    expect(schema('iniciar_laboratorio').required).toEqual(['laboratorio', 'estudiante']);
    // contenido or archivo, exactly one (checked by the tool): neither is required by the schema alone.
    expect(schema('enviar_entrega').required).toEqual(['sesion_id']);
    expect(Object.keys(schema('enviar_entrega').properties ?? {})).toEqual([
      'sesion_id',
      'contenido',
      'archivo',
    ]);
    expect(schema('enviar_entrega').properties?.contenido).toMatchObject({
      type: 'string',
      maxLength: 65536,
    });
    expect(schema('resultado_entrega').required).toEqual(['entrega_id']);
    expect(schema('resultado_entrega').properties?.espera_max_s).toMatchObject({ minimum: 0, maximum: 25 });
  });

  it('offers the statement template as markdown, listing the labs open before a student is named', async () => {
    const { resourceTemplates } = await lab.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'lab://laboratorios/{laboratorio}/enunciado',
    ]);
    const { resources } = await lab.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['lab://laboratorios/mcp-handshake/enunciado']);
    const read = await lab.client.readResource({ uri: 'lab://laboratorios/mcp-handshake/enunciado' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect(JSON.stringify(read.contents[0])).toContain('capas_de_error');
  });

  it('refuses an unknown or malformed lab statement with -32002', async () => {
    for (const uri of ['lab://laboratorios/no-existe/enunciado', 'lab://laboratorios/MAYUS/enunciado']) {
      await expect(lab.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    }
  });

  it('completes lab ids in the template and in the prompt', async () => {
    const template = await lab.client.complete({
      ref: { type: 'ref/resource', uri: 'lab://laboratorios/{laboratorio}/enunciado' },
      argument: { name: 'laboratorio', value: 'mcp-h' },
    });
    expect(template.completion.values).toEqual(['mcp-handshake']);
    const prompt = await lab.client.complete({
      ref: { type: 'ref/prompt', name: 'pista_laboratorio' },
      argument: { name: 'laboratorio', value: 'mcp' },
    });
    // mcp-esquemas completes once the session's student has unlocked it (test/unlock.test.ts).
    expect(prompt.completion.values).toEqual(['mcp-handshake']);
  });

  it('offers pista_laboratorio with graduated hints and no solution', async () => {
    const { prompts } = await lab.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['pista_laboratorio']);
    const prompt = await lab.client.getPrompt({
      name: 'pista_laboratorio',
      arguments: { laboratorio: 'mcp-handshake' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('lab://laboratorios/mcp-handshake/enunciado');
    expect(text).toContain('capas_de_error');
    expect(text).toMatch(/1\. .*\n2\. /);
    expect(text).toContain('No escribas la solución');
  });

  it('drops the write tools in read-only mode', async () => {
    const connection = await connectLab(lab.system, { readOnly: true });
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['listar_laboratorios', 'resultado_entrega']);
    await connection.close();
  });
});
