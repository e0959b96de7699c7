import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, connectAppsClient, readView, ViewHost } from '../src/harness.js';

interface Traza {
  puntos: Array<{ instante: string; latitud_deg: number; longitud_deg: number; iluminado: boolean }>;
  estaciones: Array<{ id: string }>;
}

// A message for a machine without Chromium is printed by sky-plot.test.ts; CI=true fails there.
describe.skipIf(!chromiumAvailable())('ground track of posicion_satelite in a real browser host', () => {
  let host: ViewHost;
  let client: Client;

  beforeAll(async () => {
    [host, client] = await Promise.all([ViewHost.launch(), connectAppsClient('satdt')]);
  });
  afterAll(async () => {
    await host?.close();
    await client?.close();
  });

  it('draws the coastlines, the satellite, ±1 orbit, the night and the three stations, offline and without errors', async () => {
    const html = await readView(client, 'posicion_satelite');
    const result = (await client.callTool({
      name: 'posicion_satelite',
      arguments: { norad_id: 25544, instante: '2026-06-27T03:00:00Z' },
    })) as CallToolResult;
    const p = result.structuredContent as { latitud_deg: number; longitud_deg: number };
    const session = await host.show(client, html, result, { ready: '#grafico[data-traza] svg' });
    const { view } = session;

    expect((await view.locator('path.tierra').getAttribute('d'))!.length).toBeGreaterThan(10_000);
    const dot = view.locator('[data-marca="satelite"]');
    expect(Number(await dot.getAttribute('cx'))).toBeCloseTo(p.longitud_deg + 180, 1);
    expect(Number(await dot.getAttribute('cy'))).toBeCloseTo(90 - p.latitud_deg, 1);

    const traza = session.toolCalls.find((c) => c.params.name === 'traza_orbital')!.result
      .structuredContent as unknown as Traza;
    expect(traza.estaciones.map((s) => s.id).sort()).toEqual(['orbiteye-cl', 'orbiteye-es', 'orbiteye-mx']);
    expect(await view.locator('g.estacion').count()).toBe(3);
    // Every sample of the track is drawn once (the satellite's own point joins the past and the future).
    const drawn = await view
      .locator('polyline.traza')
      .evaluateAll((lines) => lines.map((l) => l.getAttribute('points')!.split(' ')));
    const points = new Set(drawn.flat());
    for (const q of traza.puntos) {
      expect(points.has(`${(q.longitud_deg + 180).toFixed(2)},${(90 - q.latitud_deg).toFixed(2)}`)).toBe(
        true,
      );
    }
    // No segment jumps across the map at the antimeridian.
    for (const line of drawn) {
      const xs = line.map((pt) => Number(pt.split(',')[0]));
      for (let i = 1; i < xs.length; i++) expect(Math.abs(xs[i]! - xs[i - 1]!)).toBeLessThan(180);
    }
    // The night drawn agrees with the twin: where the satellite is in Earth's shadow, the ground below is night.
    const eclipsed = traza.puntos.filter((q) => !q.iluminado);
    expect(eclipsed.length).toBeGreaterThan(0);
    const inNight = await view.evaluate(
      (pts) => {
        const night = document.querySelector('path.noche') as SVGPathElement;
        return pts.map(([x, y]) => {
          const point = new DOMPoint(x, y);
          return night.isPointInFill(point);
        });
      },
      eclipsed.map((q) => [q.longitud_deg + 180, 90 - q.latitud_deg]),
    );
    expect(inNight.every(Boolean)).toBe(true);

    expect(session.network).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
    await session.screenshot('traza-satelite');
    await session.close();
  });
});
