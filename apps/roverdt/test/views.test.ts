import { type StdioPeer, spawnServerWithData, tempDataDir } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { FAR_EAST, INTO_SAND } from './helpers.js';

// MCP Apps (io.modelcontextprotocol/ui): the terrain map for clients that render views, and exactly the
// old surface for every other client.
const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const VIEW_URI = 'ui://roverdt/mapa-terreno.html';

const track = trackPeers();
const dirs: Array<{ remove(): void }> = [];
afterAll(() => {
  for (const d of dirs) d.remove();
});
async function peer(capabilities: Record<string, unknown> = {}): Promise<StdioPeer> {
  const dir = tempDataDir('roverdt-views-');
  dirs.push(dir);
  const p = spawnServerWithData('roverdt', dir.dir, [], { ROVERDT_LEG_DELAY_MS: '0' });
  track(p);
  await p.initialize('2025-06-18', capabilities);
  return p;
}
const withApps = () => peer({ extensions: { [UI]: { mimeTypes: [MIME] } } });
const call = async (p: StdioPeer, name: string, args: Record<string, unknown>) =>
  (await p.request('tools/call', { name, arguments: args })).result as {
    content: Array<{ text: string }>;
    structuredContent: Record<string, unknown>;
    isError?: boolean;
  };

type Tools = { tools: Array<{ name: string; _meta?: Record<string, unknown> }> };

describe('MCP Apps terrain map (issue 15)', () => {
  it('a client without the extension sees no view and no terreno_rover', async () => {
    const plain = await peer();
    const { tools } = (await plain.request('tools/list')).result as Tools;
    expect(tools.map((t) => t.name).sort()).toEqual([
      'ejecutar_ruta',
      'esperar',
      'estado_rover',
      'medir',
      'planificar_ruta',
    ]);
    expect(tools.every((t) => t._meta === undefined)).toBe(true);
    const { resources } = (await plain.request('resources/list')).result as {
      resources: Array<{ uri: string }>;
    };
    expect(resources.some((r) => r.uri.startsWith('ui://'))).toBe(false);
    const hidden = await plain.request('tools/call', {
      name: 'terreno_rover',
      arguments: { rover_id: 'rover-1' },
    });
    expect(hidden.error?.code).toBe(-32602);
  });

  it('planificar_ruta and estado_rover name the terrain map; terreno_rover is for the view only', async () => {
    const apps = await withApps();
    const { tools } = (await apps.request('tools/list')).result as Tools;
    const meta = (name: string) => tools.find((t) => t.name === name)?._meta;
    expect(meta('planificar_ruta')).toEqual({ ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI });
    expect(meta('estado_rover')).toEqual({ ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI });
    expect(meta('terreno_rover')).toEqual({ ui: { visibility: ['app'] } });
    expect(meta('ejecutar_ruta')).toBeUndefined();
    const read = (await apps.request('resources/read', { uri: VIEW_URI })).result as {
      contents: Array<{ mimeType: string; text: string }>;
    };
    expect(read.contents[0]?.mimeType).toBe(MIME);
  });

  it('the outputs are the same with or without the extension', async () => {
    const [plain, apps] = await Promise.all([peer(), withApps()]);
    expect(await call(apps, 'estado_rover', { rover_id: 'rover-1' })).toEqual(
      await call(plain, 'estado_rover', { rover_id: 'rover-1' }),
    );
    // Route ids are random: everything else must match.
    const a = await call(plain, 'planificar_ruta', { rover_id: 'rover-1', destino: FAR_EAST });
    const b = await call(apps, 'planificar_ruta', { rover_id: 'rover-1', destino: FAR_EAST });
    const id = (r: typeof a) => r.structuredContent.ruta_id as string;
    expect({ ...b.structuredContent, ruta_id: '' }).toEqual({ ...a.structuredContent, ruta_id: '' });
    expect(b.content[0]?.text.replaceAll(id(b), '')).toBe(a.content[0]?.text.replaceAll(id(a), ''));
  });

  it('terreno_rover gives the whole heightmap, the rocks of the map and the soft sand the rover found', async () => {
    const apps = await withApps();
    const ruta = await call(apps, 'planificar_ruta', { rover_id: 'rover-1', destino: INTO_SAND });
    await call(apps, 'ejecutar_ruta', { rover_id: 'rover-1', ruta_id: ruta.structuredContent.ruta_id });
    const terreno = (await call(apps, 'terreno_rover', { rover_id: 'rover-1' })).structuredContent as {
      ancho: number;
      alto: number;
      elevacion_u8: string;
      rocas: number[];
      arena_blanda: Array<{ x: number; y: number }>;
      ruta_reciente: { ruta_id: string } | null;
    };
    const map = JSON.parse(
      (
        (await apps.request('resources/read', { uri: 'rover://mapa' })).result as {
          contents: Array<{ text: string }>;
        }
      ).contents[0]!.text,
    ) as { width: number; height: number; obstacle_cells: number };
    expect([terreno.ancho, terreno.alto]).toEqual([map.width, map.height]);
    expect(Buffer.from(terreno.elevacion_u8, 'base64')).toHaveLength(map.width * map.height);
    expect(terreno.rocas).toHaveLength(map.obstacle_cells);
    const estado = (await call(apps, 'estado_rover', { rover_id: 'rover-1' })).structuredContent;
    expect(estado.peligros_conocidos).toBeGreaterThan(0);
    expect(terreno.arena_blanda).toHaveLength(estado.peligros_conocidos as number);
    expect(terreno.ruta_reciente?.ruta_id).toBe(ruta.structuredContent.ruta_id);
  });
});
