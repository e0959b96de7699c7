import { argumentsOf, describeToolSurface, READ_ONLY, writes } from '@code-cluster/testkit/vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { after, connectEmbedded, resourceText } from './helpers.js';

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, close } = await connectEmbedded());
});
afterAll(() => close());

const DEFAULT_TOOLS = [
  'agenda_estacion',
  'agendar_contacto',
  'cancelar_contacto',
  'estado_estacion',
  'listar_estaciones',
  'listar_mantenimientos',
];

describe('groundstation-mcp contract (CONTRACT.md)', () => {
  describeToolSurface({
    listTools: async () => (await client.listTools()).tools,
    tools: {
      listar_estaciones: READ_ONLY,
      estado_estacion: READ_ONLY,
      agenda_estacion: READ_ONLY,
      listar_mantenimientos: READ_ONLY,
      agendar_contacto: writes(),
      cancelar_contacto: writes({ destructive: true, idempotent: true }),
      solicitar_acceso_operador: READ_ONLY,
    },
    descriptions: /Úsala/,
    snapshot: './snapshots/tools.json',
    // The snapshot holds every tool a session can ever see: those of a session that can be elevated, then
    // what it sees once elevated (the operator tools and dejar_acceso_operador).
    snapshotTools: async () => {
      const s = await connectEmbedded({
        elevation: { confirm: true },
        capabilities: { elicitation: { form: {} } },
      });
      try {
        s.client.setRequestHandler(ElicitRequestSchema, () => ({
          action: 'accept',
          content: { confirmar: true },
        }));
        const before = (await s.client.listTools()).tools;
        await s.client.callTool({ name: 'solicitar_acceso_operador', arguments: {} });
        const elevated = (await s.client.listTools()).tools;
        return [...before, ...elevated.filter((t) => !before.some((b) => b.name === t.name))];
      } finally {
        await s.close();
      }
    },
  });

  it('gives the six default tools the contract argument names', async () => {
    const { tools } = await client.listTools();
    expect(argumentsOf(tools)).toEqual({
      listar_estaciones: { all: [], required: [] },
      estado_estacion: { all: ['estacion'], required: ['estacion'] },
      agendar_contacto: {
        all: ['estacion', 'norad_id', 'inicio', 'fin', 'antena'],
        required: ['estacion', 'norad_id', 'inicio', 'fin'],
      },
      cancelar_contacto: { all: ['contacto_id'], required: ['contacto_id'] },
      agenda_estacion: { all: ['estacion', 'horas'], required: ['estacion'] },
      listar_mantenimientos: { all: ['estacion'], required: ['estacion'] },
      solicitar_acceso_operador: { all: [], required: [] },
    });
  });

  it('keeps argument bounds tight', async () => {
    const { tools } = await client.listTools();
    const props = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, object>;
    expect(props('agenda_estacion').horas).toMatchObject({ type: 'integer', minimum: 1, maximum: 168 });
    expect(props('agendar_contacto').norad_id).toMatchObject({ type: 'integer', minimum: 1 });
    expect(props('agendar_contacto').inicio).toMatchObject({ type: 'string', format: 'date-time' });
    expect(props('agendar_contacto').fin).toMatchObject({ type: 'string', format: 'date-time' });
    expect(props('cancelar_contacto').contacto_id).toMatchObject({
      type: 'string',
      pattern: '^ct-[0-9a-f]{12}$',
    });
    for (const tool of tools) expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it('offers programar_mantenimiento and cancelar_mantenimiento only in operator scope, never under --read-only', async () => {
    const operator = await connectEmbedded({ scope: 'operador' });
    const readOnlyOperator = await connectEmbedded({ scope: 'operador', readOnly: true });
    try {
      const { tools } = await operator.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        [...DEFAULT_TOOLS, 'cancelar_mantenimiento', 'programar_mantenimiento'].sort(),
      );
      const cancel = tools.find((t) => t.name === 'cancelar_mantenimiento')!;
      expect(cancel.inputSchema.required).toEqual(['mantenimiento_id']);
      expect(cancel.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      const tool = tools.find((t) => t.name === 'programar_mantenimiento')!;
      expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(['estacion', 'inicio', 'fin', 'motivo']);
      expect(tool.inputSchema.required).toEqual(['estacion', 'inicio', 'fin', 'motivo']);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
      });
      const ro = await readOnlyOperator.client.listTools();
      expect(ro.tools.map((t) => t.name).sort()).toEqual([
        'agenda_estacion',
        'estado_estacion',
        'listar_estaciones',
        'listar_mantenimientos',
      ]);
      await expect(
        readOnlyOperator.client.callTool({
          name: 'programar_mantenimiento',
          arguments: { estacion: 'orbiteye-mx', inicio: after(60), fin: after(120), motivo: 'prueba' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(
        readOnlyOperator.client.callTool({
          name: 'cancelar_mantenimiento',
          arguments: { mantenimiento_id: 'mt-00000000c1a0' },
        }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await operator.close();
      await readOnlyOperator.close();
    }
    // Default scope: not listed, and calling it is an unknown tool.
    await expect(
      client.callTool({
        name: 'programar_mantenimiento',
        arguments: { estacion: 'orbiteye-mx', inicio: after(60), fin: after(120), motivo: 'prueba' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('offers the stations resource and the agenda template, listing one agenda per station', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'estacion://estaciones',
      'estacion://estaciones/orbiteye-cl/agenda',
      'estacion://estaciones/orbiteye-es/agenda',
      'estacion://estaciones/orbiteye-mx/agenda',
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['estacion://estaciones/{estacion}/agenda']);
  });

  it('reads the stations and an agenda, and refuses unknown or malformed stations with -32002', async () => {
    const stations = JSON.parse(resourceText(await client.readResource({ uri: 'estacion://estaciones' })));
    expect(stations.stations.map((s: { id: string }) => s.id)).toEqual([
      'orbiteye-mx',
      'orbiteye-cl',
      'orbiteye-es',
    ]);
    const agenda = JSON.parse(
      resourceText(await client.readResource({ uri: 'estacion://estaciones/orbiteye-cl/agenda' })),
    );
    expect(agenda).toMatchObject({
      station: 'orbiteye-cl',
      contacts: [],
      maintenance: [{ source: 'referencia' }],
    });
    await expect(
      client.readResource({ uri: 'estacion://estaciones/orbiteye-ar/agenda' }),
    ).rejects.toMatchObject({
      code: -32002,
    });
    await expect(
      client.readResource({ uri: 'estacion://estaciones/Nada%20Aqui/agenda' }),
    ).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('completes estacion in the template and in the prompt, and norad_id from the agendas', async () => {
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'estacion://estaciones/{estacion}/agenda' },
      argument: { name: 'estacion', value: 'orbiteye-' },
    });
    expect(template.completion.values.sort()).toEqual(['orbiteye-cl', 'orbiteye-es', 'orbiteye-mx']);
    const one = await client.complete({
      ref: { type: 'ref/prompt', name: 'preparar_contacto' },
      argument: { name: 'estacion', value: 'orbiteye-e' },
    });
    expect(one.completion.values).toEqual(['orbiteye-es']);
    await client.callTool({
      name: 'agendar_contacto',
      arguments: { estacion: 'orbiteye-es', norad_id: 40732, inicio: after(600), fin: after(610) },
    });
    const norad = await client.complete({
      ref: { type: 'ref/prompt', name: 'preparar_contacto' },
      argument: { name: 'norad_id', value: '407' },
    });
    expect(norad.completion.values).toEqual(['40732']);
  });

  it('offers preparar_contacto, which walks proximos_pases → estado_estacion → agendar_contacto', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['preparar_contacto']);
    expect(prompts[0]?.arguments?.map((a) => a.name).sort()).toEqual(['estacion', 'norad_id']);
    const prompt = await client.getPrompt({
      name: 'preparar_contacto',
      arguments: { estacion: 'orbiteye-mx', norad_id: '25544' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('25544');
    expect(text).toContain('orbiteye-mx');
    const order = ['proximos_pases', 'estado_estacion', 'agendar_contacto'].map((tool) => text.indexOf(tool));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(/primer pase/);
  });
});
