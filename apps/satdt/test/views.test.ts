import { type StdioPeer, spawnServer } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { describe, expect, it } from 'vitest';

// MCP Apps (io.modelcontextprotocol/ui): what a client that renders views sees, and that every other
// client sees exactly what it saw before views existed.
const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const VIEW_URI = 'ui://satdt/cielo-pases.html';
const TRACK_URI = 'ui://satdt/traza-satelite.html';
const PASES = { norad_id: 25544, estacion: 'orbiteye-mx', horas: 24, desde: '2026-06-27T00:00:00Z' };

const track = trackPeers();
async function peer(capabilities: Record<string, unknown> = {}): Promise<StdioPeer> {
  const p = spawnServer('satdt');
  track(p);
  await p.initialize('2025-06-18', capabilities);
  return p;
}
const withApps = () => peer({ extensions: { [UI]: { mimeTypes: [MIME] } } });

type Tools = { tools: Array<{ name: string; _meta?: Record<string, unknown> }> };
type Resources = { resources: Array<{ uri: string; mimeType?: string }> };

describe('MCP Apps views (issue 15)', () => {
  it('a client without the extension sees no view, no view-only tool and no _meta', async () => {
    const plain = await peer();
    const { tools } = (await plain.request('tools/list')).result as Tools;
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'actualizar_elementos',
        'posicion_satelite',
        'proximos_pases',
        'satelite_info',
        'telemetria_satelite',
      ].sort(),
    );
    expect(tools.every((t) => t._meta === undefined)).toBe(true);
    const { resources } = (await plain.request('resources/list')).result as Resources;
    expect(resources.some((r) => r.uri.startsWith('ui://'))).toBe(false);
    const hidden = await plain.request('tools/call', {
      name: 'trayectorias_pases',
      arguments: {
        norad_id: 25544,
        estacion: 'orbiteye-mx',
        pases: [{ aos: PASES.desde, los: PASES.desde }],
      },
    });
    expect(hidden.error?.code).toBe(-32602);
    expect(hidden.error?.message).toContain("Herramienta desconocida: 'trayectorias_pases'");
  });

  it('an offer without the MCP Apps MIME type is no offer', async () => {
    const vague = await peer({ extensions: { [UI]: {} } });
    const { tools } = (await vague.request('tools/list')).result as Tools;
    expect(tools.some((t) => t._meta !== undefined || t.name === 'trayectorias_pases')).toBe(false);
  });

  it('a client with the extension gets _meta.ui, the view-only tool and the ui:// resource', async () => {
    for (const capabilities of [
      { extensions: { [UI]: { mimeTypes: [MIME] } } },
      { experimental: { [UI]: { mimeTypes: [MIME] } } },
    ]) {
      const apps = await peer(capabilities);
      const { tools } = (await apps.request('tools/list')).result as Tools;
      const pases = tools.find((t) => t.name === 'proximos_pases');
      expect(pases?._meta).toEqual({ ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI });
      expect(tools.find((t) => t.name === 'trayectorias_pases')?._meta).toEqual({
        ui: { visibility: ['app'] },
      });
      expect(tools.find((t) => t.name === 'posicion_satelite')?._meta).toEqual({
        ui: { resourceUri: TRACK_URI },
        'ui/resourceUri': TRACK_URI,
      });
      expect(tools.find((t) => t.name === 'traza_orbital')?._meta).toEqual({ ui: { visibility: ['app'] } });
      expect(tools.find((t) => t.name === 'satelite_info')?._meta).toBeUndefined();
      const { resources } = (await apps.request('resources/list')).result as Resources;
      expect(resources.find((r) => r.uri === VIEW_URI)?.mimeType).toBe(MIME);
      const read = (await apps.request('resources/read', { uri: VIEW_URI })).result as {
        contents: Array<{ uri: string; mimeType: string; text: string }>;
      };
      expect(read.contents[0]?.mimeType).toBe(MIME);
      expect(read.contents[0]?.text).toMatch(/^<!doctype html>/);
      expect(read.contents[0]?.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    }
  });

  it('proximos_pases answers the same text and structuredContent with or without the extension', async () => {
    const [plain, apps] = await Promise.all([peer(), withApps()]);
    const a = await plain.request('tools/call', { name: 'proximos_pases', arguments: PASES });
    const b = await apps.request('tools/call', { name: 'proximos_pases', arguments: PASES });
    expect(
      (a.result as { structuredContent: { pases: unknown[] } }).structuredContent.pases.length,
    ).toBeGreaterThan(0);
    expect(b.result).toEqual(a.result);
  });

  it('trayectorias_pases tracks each pass from the mask at AOS up to its maximum elevation', async () => {
    const apps = await withApps();
    const pases = (await apps.request('tools/call', { name: 'proximos_pases', arguments: PASES })).result as {
      structuredContent: {
        pases: Array<{ aos: string; los: string; elevacion_max_deg: number; azimut_aos_deg: number }>;
      };
    };
    const list = pases.structuredContent.pases;
    const call = await apps.request('tools/call', {
      name: 'trayectorias_pases',
      arguments: {
        norad_id: 25544,
        estacion: 'orbiteye-mx',
        pases: list.map(({ aos, los }) => ({ aos, los })),
        puntos: 41,
      },
    });
    const data = (
      call.result as {
        structuredContent: {
          estacion: { mascara_deg: number };
          trayectorias: Array<{ puntos: Array<{ azimut_deg: number; elevacion_deg: number }> }>;
        };
      }
    ).structuredContent;
    expect(data.trayectorias).toHaveLength(list.length);
    data.trayectorias.forEach((t, i) => {
      const pase = list[i]!;
      const top = Math.max(...t.puntos.map((p) => p.elevacion_deg));
      // The view's geometry (WGS84 look angles from the sub-satellite point) agrees with the twin's own pass
      // search: the track starts on the mask at the AOS azimuth and culminates at the pass's maximum.
      expect(t.puntos).toHaveLength(41);
      expect(Math.abs(t.puntos[0]!.elevacion_deg - data.estacion.mascara_deg)).toBeLessThan(0.5);
      expect(Math.abs(((t.puntos[0]!.azimut_deg - pase.azimut_aos_deg + 540) % 360) - 180)).toBeLessThan(1);
      expect(Math.abs(top - pase.elevacion_max_deg)).toBeLessThan(1);
    });
  });

  it('traza_orbital spans one orbit each side of the instant, through the position posicion_satelite gives', async () => {
    const apps = await withApps();
    const instante = '2026-06-27T03:00:00Z';
    const here = (
      await apps.request('tools/call', {
        name: 'posicion_satelite',
        arguments: { norad_id: 25544, instante },
      })
    ).result as { structuredContent: { latitud_deg: number; longitud_deg: number } };
    const call = await apps.request('tools/call', {
      name: 'traza_orbital',
      arguments: { norad_id: 25544, instante },
    });
    const data = (
      call.result as {
        structuredContent: {
          periodo_min: number;
          puntos: Array<{ instante: string; latitud_deg: number; longitud_deg: number }>;
          estaciones: Array<{ id: string; radio_visibilidad_deg: number }>;
        };
      }
    ).structuredContent;
    expect(data.puntos).toHaveLength(121);
    const span = Date.parse(data.puntos.at(-1)!.instante) - Date.parse(data.puntos[0]!.instante);
    expect(span / 60_000).toBeCloseTo(2 * data.periodo_min, 3);
    const middle = data.puntos[60]!;
    expect(middle.instante).toBe('2026-06-27T03:00:00.000Z');
    expect(middle.latitud_deg).toBeCloseTo(here.structuredContent.latitud_deg, 2);
    expect(middle.longitud_deg).toBeCloseTo(here.structuredContent.longitud_deg, 2);
    // From about 420 km, a 10° mask sees the ISS within roughly 12–13° of arc of the station.
    const mx = data.estaciones.find((s) => s.id === 'orbiteye-mx')!;
    expect(mx.radio_visibilidad_deg).toBeGreaterThan(11);
    expect(mx.radio_visibilidad_deg).toBeLessThan(14);
  });

  it('trayectorias_pases names the argument it refuses', async () => {
    const apps = await withApps();
    const call = await apps.request('tools/call', {
      name: 'trayectorias_pases',
      arguments: { norad_id: 25544, estacion: 'orbiteye-mx', pases: [] },
    });
    expect(JSON.stringify(call.error ?? call.result)).toContain('pases');
    const backwards = await apps.request('tools/call', {
      name: 'trayectorias_pases',
      arguments: {
        norad_id: 25544,
        estacion: 'orbiteye-mx',
        pases: [{ aos: '2026-06-27T01:00:00Z', los: '2026-06-27T00:50:00Z' }],
      },
    });
    expect(backwards.result).toEqual({
      content: [
        {
          type: 'text',
          text: "'pases[0].los' (2026-06-27T00:50:00Z) debe ser posterior a 'pases[0].aos' (2026-06-27T01:00:00Z).",
        },
      ],
      isError: true,
    });
  });
});
