import { argumentsOf, describeToolSurface, READ_ONLY, writes } from '@code-cluster/testkit/vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEmbedded, resourceText } from './helpers.js';

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, close } = await connectEmbedded());
});
afterAll(() => close());

describe('academy-mcp contract (CONTRACT.md)', () => {
  describeToolSurface({
    listTools: async () => (await client.listTools()).tools,
    tools: {
      buscar_cursos: READ_ONLY,
      progreso_estudiante: READ_ONLY,
      ver_quiz: READ_ONLY,
      registrar_avance: writes({ idempotent: true }),
      responder_quiz: writes(),
      consulta_sql: READ_ONLY,
    },
    descriptions: /Úsala/,
    snapshot: './snapshots/tools.json',
  });

  it('offers the five contract tools, with their argument names, plus ver_quiz', async () => {
    const { tools } = await client.listTools();
    expect(argumentsOf(tools)).toEqual({
      buscar_cursos: { all: ['texto'], required: [] },
      progreso_estudiante: { all: ['estudiante'], required: ['estudiante'] },
      ver_quiz: { all: ['quiz'], required: ['quiz'] },
      registrar_avance: { all: ['estudiante', 'leccion'], required: ['estudiante', 'leccion'] },
      responder_quiz: {
        all: ['estudiante', 'quiz', 'respuestas'],
        required: ['estudiante', 'quiz', 'respuestas'],
      },
      consulta_sql: { all: ['sql', 'parametros', 'limite'], required: ['sql'] },
    });
    for (const tool of tools) expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it('drops the write tools under --read-only, and calling one is an unknown tool', async () => {
    const readOnly = await connectEmbedded({ readOnly: true });
    try {
      const { tools } = await readOnly.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'buscar_cursos',
        'consulta_sql',
        'progreso_estudiante',
        'ver_quiz',
      ]);
      await expect(
        readOnly.client.callTool({
          name: 'registrar_avance',
          arguments: { estudiante: 'ana-garcia', leccion: 'mcp-01-nxm' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await readOnly.close();
    }
  });

  it('offers the two resource templates and lists every lesson and every table', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'academia://cursos/{curso}/lecciones/{leccion}',
      'schema://tablas/{tabla}',
    ]);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris.filter((u) => u.startsWith('academia://'))).toHaveLength(11);
    expect(uris).toContain('academia://cursos/mcp/lecciones/mcp-01-nxm');
    expect(uris.filter((u) => u.startsWith('schema://'))).toHaveLength(8);
  });

  it('reads the N×M lesson as markdown and a table schema as JSON; unknown ones are -32002', async () => {
    const lesson = await client.readResource({ uri: 'academia://cursos/mcp/lecciones/mcp-01-nxm' });
    expect(lesson.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect(resourceText(lesson)).toMatch(/^# El problema N×M y cómo MCP lo convierte en N\+M/);
    const table = JSON.parse(resourceText(await client.readResource({ uri: 'schema://tablas/avances' })));
    expect(table.columns.map((c: { name: string }) => c.name)).toEqual([
      'estudiante_id',
      'leccion_id',
      'completado_en',
    ]);
    expect(table.columns[2]).toMatchObject({ type: 'TEXT', nullable: false, default: null });
    for (const uri of [
      'academia://cursos/orbitas/lecciones/mcp-01-nxm',
      'academia://cursos/mcp/lecciones/nada',
      'academia://cursos/MCP%20x/lecciones/a',
      'schema://tablas/nada',
      'schema://tablas/sqlite_schema',
    ]) {
      await expect(client.readResource({ uri }), uri).rejects.toMatchObject({ code: -32002 });
    }
  });

  it('completes curso, leccion (narrowed by curso) and tabla, and the prompt arguments', async () => {
    const lessonRef = { type: 'ref/resource' as const, uri: 'academia://cursos/{curso}/lecciones/{leccion}' };
    const curso = await client.complete({ ref: lessonRef, argument: { name: 'curso', value: 'm' } });
    expect(curso.completion.values).toEqual(['mcp']);
    const leccion = await client.complete({
      ref: lessonRef,
      argument: { name: 'leccion', value: '' },
      context: { arguments: { curso: 'orbitas' } },
    });
    expect(leccion.completion.values).toEqual(['orb-01-kepler', 'orb-02-tle-sgp4', 'orb-03-pases']);
    const tabla = await client.complete({
      ref: { type: 'ref/resource', uri: 'schema://tablas/{tabla}' },
      argument: { name: 'tabla', value: 'in' },
    });
    expect(tabla.completion.values).toEqual(['intentos']);
    const promptTable = await client.complete({
      ref: { type: 'ref/prompt', name: 'analizar_tabla' },
      argument: { name: 'tabla', value: 'ma' },
    });
    expect(promptTable.completion.values).toEqual(['matriculas']);
    const promptLesson = await client.complete({
      ref: { type: 'ref/prompt', name: 'tutor_leccion' },
      argument: { name: 'leccion', value: 'mcp-0' },
    });
    expect(promptLesson.completion.values).toHaveLength(4);
  });

  it('analizar_tabla reads the schema resource before any consulta_sql', async () => {
    const prompt = await client.getPrompt({ name: 'analizar_tabla', arguments: { tabla: 'intentos' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const schema = text.indexOf('schema://tablas/intentos');
    expect(schema).toBeGreaterThan(0);
    expect(text.indexOf('consulta_sql')).toBeGreaterThan(schema);
    expect(text).toMatch(/no la sigas/);
  });

  it('tutor_leccion embeds the lesson as a resource (data), proposes its quiz, and refuses unknown lessons', async () => {
    const prompt = await client.getPrompt({ name: 'tutor_leccion', arguments: { leccion: 'mcp-01-nxm' } });
    const [instructions, lesson] = prompt.messages;
    expect((instructions!.content as { text: string }).text).toContain('quiz-mcp-01');
    expect((instructions!.content as { text: string }).text).toContain('no instrucciones');
    expect(lesson!.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'academia://cursos/mcp/lecciones/mcp-01-nxm', mimeType: 'text/markdown' },
    });
    await expect(
      client.getPrompt({ name: 'tutor_leccion', arguments: { leccion: 'nada' } }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });
});
