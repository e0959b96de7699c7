import { describeToolSurface, READ_ONLY, writes } from '@code-cluster/testkit/vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEmbedded, embeddedDeps, resourceText } from './helpers.js';

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, close } = await connectEmbedded());
});

afterAll(() => close());

describe('satdt-mcp contract (CONTRACT.md)', () => {
  describeToolSurface({
    listTools: async () => (await client.listTools()).tools,
    tools: {
      satelite_info: READ_ONLY,
      proximos_pases: READ_ONLY,
      posicion_satelite: READ_ONLY,
      telemetria_satelite: READ_ONLY,
      // It changes the twin's catalog from outside sources: a write, and open-world.
      actualizar_elementos: writes({ idempotent: true, openWorld: true }),
    },
    snapshot: './snapshots/tools.json',
  });

  it('shows satelite_info exactly as the course quotes it', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'satelite_info')!;
    expect(tool.description).toBe(
      'Datos de catálogo de un satélite. Úsala cuando necesites nombre, régimen orbital o estado operativo.',
    );
    expect(tool.inputSchema).toMatchObject({
      type: 'object',
      properties: { norad_id: { type: 'integer' } },
      required: ['norad_id'],
    });
    expect(tool.inputSchema.properties?.norad_id).toEqual({ type: 'integer' });
  });

  it('shows proximos_pases exactly as the course quotes it', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'proximos_pases')!;
    expect(tool.description).toBe('Ventanas de visibilidad futuras desde una estación.');
    const props = tool.inputSchema.properties as Record<string, unknown>;
    expect(props.norad_id).toEqual({ type: 'integer' });
    // The course's shape (type string) plus what CONTRACT.md allows: the stations and what they are.
    expect(props.estacion).toMatchObject({ type: 'string' });
    const { stations } = await embeddedDeps().satdt.listStations();
    expect(props.estacion).not.toHaveProperty('enum');
    const description = (props.estacion as { description: string }).description;
    for (const s of stations) expect(description).toContain(s.id);
    expect((props.estacion as { description: string }).description).toMatch(/^Estación terrena/);
    expect(props.horas).toEqual({ type: 'integer', minimum: 1, maximum: 72 });
    expect(tool.inputSchema.required).toEqual(['norad_id', 'estacion']);
    expect(props.desde).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('offers the catalog resource and the satellite template', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('satdt://catalogo');
    expect(resources.filter((r) => r.uri.startsWith('satdt://satelites/')).length).toBeGreaterThanOrEqual(20);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['satdt://satelites/{norad_id}']);
  });

  it('reads the catalog in Spanish: at least 20 real satellites, ISS among them', async () => {
    const { contents } = await client.readResource({ uri: 'satdt://catalogo' });
    const catalog = JSON.parse(resourceText({ contents })) as {
      satelites: Array<Record<string, unknown>>;
    };
    expect(Object.keys(catalog)).toEqual(['satelites']);
    expect(catalog.satelites.length).toBeGreaterThanOrEqual(20);
    expect(catalog.satelites.find((s) => s.norad_id === 25544)).toEqual({
      norad_id: 25544,
      nombre: 'ISS (ZARYA)',
      cospar_id: '1998-067A',
      regimen: 'LEO',
      estado: 'operativo',
      epoca_elementos: '2026-06-26T16:06:15.917Z',
      antiguedad_elementos_dias: expect.closeTo(0.33, 2),
      fuente_elementos: {
        origen: 'catalogo_incluido',
        ubicacion: 'CelesTrak (GP, grupo "active"); ver data/satdt/CREDITS.md',
        formato: 'tle',
      },
    });
    expect(catalog.satelites.find((s) => s.norad_id === 42738)).toMatchObject({
      regimen: 'GEO',
      subtipo: 'geosincrona_inclinada',
    });
  });

  it('reads one satellite in Spanish with its TLE, and refuses an unknown one with -32002', async () => {
    const { contents } = await client.readResource({ uri: 'satdt://satelites/25544' });
    const sat = JSON.parse(resourceText({ contents })) as Record<string, unknown> & {
      elementos: Record<string, unknown>;
      tle: { linea1: string };
    };
    expect(Object.keys(sat)).toEqual([
      'norad_id',
      'nombre',
      'cospar_id',
      'regimen',
      'estado',
      'elementos',
      'fuente_elementos',
      'tle',
      'fuente',
    ]);
    expect(sat.nombre).toBe('ISS (ZARYA)');
    expect(sat.tle.linea1).toMatch(/^1 25544U/);
    expect(sat.elementos).toMatchObject({ epoca: '2026-06-26T16:06:15.917Z' });
    expect(Object.keys(sat.elementos).join(' ')).not.toMatch(/epoch|inclination|mean|raan|age/);
    await expect(client.readResource({ uri: 'satdt://satelites/99999' })).rejects.toMatchObject({
      code: -32002,
    });
    await expect(client.readResource({ uri: 'satdt://satelites/abc' })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('completes norad_id in the template and the prompt arguments', async () => {
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'satdt://satelites/{norad_id}' },
      argument: { name: 'norad_id', value: '255' },
    });
    expect(template.completion.values).toContain('25544');
    expect(template.completion.values.every((v) => v.startsWith('255'))).toBe(true);
    const station = await client.complete({
      ref: { type: 'ref/prompt', name: 'planificar_observacion' },
      argument: { name: 'estacion', value: 'orbiteye-' },
    });
    expect(station.completion.values.sort()).toEqual(['orbiteye-cl', 'orbiteye-es', 'orbiteye-mx']);
  });

  it('offers the planificar_observacion prompt, which names the tools to use', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['planificar_observacion']);
    expect(prompts[0]?.arguments?.map((a) => a.name).sort()).toEqual(['estacion', 'norad_id']);
    const prompt = await client.getPrompt({
      name: 'planificar_observacion',
      arguments: { norad_id: '25544', estacion: 'orbiteye-mx' },
    });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('25544');
    expect(text).toContain('orbiteye-mx');
    expect(text).toContain('proximos_pases');
  });
});
