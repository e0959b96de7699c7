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

describe('roverdt-mcp contract (CONTRACT.md)', () => {
  describeToolSurface({
    listTools: async () => (await client.listTools()).tools,
    tools: {
      estado_rover: READ_ONLY,
      planificar_ruta: writes(),
      // Driving spends battery for good: destructive, not idempotent.
      ejecutar_ruta: writes({ destructive: true }),
      // Waiting moves the rover's clock on for good, but loses nothing: a write, not destructive.
      esperar: writes(),
      medir: READ_ONLY,
    },
    descriptions: /Úsala/,
    snapshot: './snapshots/tools.json',
  });

  it('gives the five rover tools the contract argument names', async () => {
    const { tools } = await client.listTools();
    expect(argumentsOf(tools)).toEqual({
      estado_rover: { all: ['rover_id'], required: ['rover_id'] },
      planificar_ruta: { all: ['rover_id', 'destino'], required: ['rover_id', 'destino'] },
      ejecutar_ruta: { all: ['rover_id', 'ruta_id'], required: ['rover_id', 'ruta_id'] },
      medir: { all: ['rover_id', 'instrumento'], required: ['rover_id', 'instrumento'] },
      esperar: { all: ['rover_id', 'horas'], required: ['rover_id', 'horas'] },
    });
  });

  it('keeps argument bounds tight: destino within the 256-cell map, instruments an enum, ids patterned', async () => {
    const { tools } = await client.listTools();
    const props = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, Record<string, unknown>>;
    const destino = props('planificar_ruta').destino!;
    expect(destino).toMatchObject({ type: 'object', required: ['x', 'y'], additionalProperties: false });
    for (const axis of ['x', 'y']) {
      expect((destino.properties as Record<string, object>)[axis]).toMatchObject({
        type: 'integer',
        minimum: 0,
        maximum: 255,
      });
    }
    expect(props('medir').instrumento).toMatchObject({
      type: 'string',
      enum: ['camara', 'espectrometro', 'termometro', 'sismometro'],
    });
    expect(props('ejecutar_ruta').ruta_id).toMatchObject({ type: 'string', pattern: '^rt-[0-9a-f]{12}$' });
    expect(props('estado_rover').rover_id).toMatchObject({ type: 'string', maxLength: 40 });
    expect(props('esperar').horas).toMatchObject({ type: 'integer', minimum: 1, maximum: 48 });
    for (const tool of tools) expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it('drops the write tools under --read-only', async () => {
    const readOnly = await connectEmbedded({ readOnly: true });
    try {
      const { tools } = await readOnly.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['estado_rover', 'medir']);
      await expect(
        readOnly.client.callTool({
          name: 'planificar_ruta',
          arguments: { rover_id: 'rover-1', destino: { x: 1, y: 1 } },
        }),
      ).rejects.toMatchObject({ code: -32602 });
    } finally {
      await readOnly.close();
    }
  });

  it('offers rover://mapa and the rover template, listing rover-1', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['rover://mapa', 'rover://rovers/rover-1']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['rover://rovers/{rover_id}']);
  });

  it('reads a small map summary, not 65 536 cells', async () => {
    const result = await client.readResource({ uri: 'rover://mapa' });
    const text = resourceText(result);
    expect(text.length).toBeLessThan(4_000);
    const map = JSON.parse(text);
    expect(map).toMatchObject({ width: 256, height: 256, cell_size_m: 1, max_slope_deg: 20, craters: 11 });
    expect(map.overview.rows).toHaveLength(32);
    expect(map.obstacle_cells).toBeGreaterThan(0);
  });

  it('reads a rover with its recent routes, and refuses unknown or malformed rovers with -32002', async () => {
    const rover = JSON.parse(resourceText(await client.readResource({ uri: 'rover://rovers/rover-1' })));
    expect(rover.rover).toMatchObject({ id: 'rover-1', pose: { x: 40, y: 40 } });
    expect(rover.recent_routes).toEqual([]);
    await expect(client.readResource({ uri: 'rover://rovers/rover-9' })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(client.readResource({ uri: 'rover://rovers/Rover%201' })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('completes rover_id in the template and in the prompt', async () => {
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'rover://rovers/{rover_id}' },
      argument: { name: 'rover_id', value: 'rov' },
    });
    expect(template.completion.values).toEqual(['rover-1']);
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'explorar_zona' },
      argument: { name: 'rover_id', value: 'x' },
    });
    expect(prompt.completion.values).toEqual([]);
  });

  it('offers explorar_zona, which walks estado_rover → medir → planificar_ruta → ejecutar_ruta', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['explorar_zona']);
    expect(prompts[0]?.arguments?.map((a) => a.name)).toEqual(['rover_id']);
    const prompt = await client.getPrompt({ name: 'explorar_zona', arguments: { rover_id: 'rover-1' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('rover_id=rover-1');
    const order = ['estado_rover', 'rover://mapa', 'medir', 'planificar_ruta', 'ejecutar_ruta'].map((s) =>
      text.indexOf(s),
    );
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toMatch(/reserva/);
    expect(text).toContain('usa esperar y vuelve a planificar');
  });
});
