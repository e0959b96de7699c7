import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumAvailable, connectAppsClient, readView, ViewHost } from '../src/harness.js';

const available = chromiumAvailable();
if (!available) {
  if (process.env.CI === 'true')
    throw new Error(`CI=true and ${CHROMIUM} is missing: apt-get install chromium`);
  console.log(`view-host: ${CHROMIUM} not found, browser tests skipped (apt-get install chromium)`);
}

interface Pases {
  estacion: string;
  pases: Array<{ aos: string; los: string; elevacion_max_deg: number }>;
}
interface Trayectorias {
  trayectorias: Array<{ puntos: Array<{ azimut_deg: number; elevacion_deg: number }> }>;
}

// The polar plot's geometry, as a person reads it: zenith at the centre, horizon on the outer ring.
const SIZE = 360;
const C = SIZE / 2;
const R = C - 24;
const expectedPoint = (az: number, el: number) => [
  C + ((R * (90 - el)) / 90) * Math.sin((az * Math.PI) / 180),
  C - ((R * (90 - el)) / 90) * Math.cos((az * Math.PI) / 180),
];

describe.skipIf(!available)('sky plot of proximos_pases in a real browser host', () => {
  let host: ViewHost;
  let client: Client;
  let html: string;
  let result: CallToolResult;

  beforeAll(async () => {
    [host, client] = await Promise.all([ViewHost.launch(), connectAppsClient('satdt')]);
    html = await readView(client, 'proximos_pases');
    result = (await client.callTool({
      name: 'proximos_pases',
      arguments: { norad_id: 25544, estacion: 'orbiteye-mx', horas: 24, desde: '2026-06-27T00:00:00Z' },
    })) as CallToolResult;
  });
  afterAll(async () => {
    await host?.close();
    await client?.close();
  });

  it('draws every pass of the result along its track, with a list beside it, offline and without errors', async () => {
    const data = result.structuredContent as unknown as Pases;
    expect(data.pases.length).toBeGreaterThan(1);
    const session = await host.show(client, html, result, { ready: 'svg[data-trayectorias]' });
    const { view } = session;

    expect(await view.locator('g.pase').count()).toBe(data.pases.length);
    expect(await view.locator('#lista button').count()).toBe(data.pases.length);
    expect(await view.locator('g.pase [data-marca="tca"]').count()).toBe(data.pases.length);
    expect(await view.locator('path.mascara').count()).toBe(1);
    expect(await view.locator('svg title#cielo-t').textContent()).toContain(`${data.pases.length} pases`);

    // The tracks came through the host from the view-only tool, and land where their angles say.
    expect(session.toolCalls.map((c) => c.params.name)).toEqual(['trayectorias_pases']);
    const tracks = session.toolCalls[0]!.result.structuredContent as unknown as Trayectorias;
    for (const [i, track] of tracks.trayectorias.entries()) {
      const drawn = (await view.locator(`g.pase[data-pase="${i}"] polyline`).getAttribute('points'))!
        .split(' ')
        .map((p) => p.split(',').map(Number));
      expect(drawn).toHaveLength(track.puntos.length);
      drawn.forEach(([x, y], k) => {
        const [ex, ey] = expectedPoint(
          track.puntos[k]!.azimut_deg,
          Math.max(0, track.puntos[k]!.elevacion_deg),
        );
        expect(Math.hypot(x! - ex!, y! - ey!)).toBeLessThan(0.5);
      });
    }

    // Local (the host's time zone) and UTC times side by side.
    const first = await view.locator('#lista button').first().textContent();
    const aos = new Date(data.pases[0]!.aos);
    const utc = aos.toLocaleString('es', {
      timeZone: 'UTC',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    const local = aos.toLocaleString('es', {
      timeZone: 'America/Mexico_City',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    });
    expect(first).toContain(`${local} local`);
    expect(first).toContain(`${utc} UTC`);

    expect(session.network).toEqual([]);
    expect(session.consoleErrors).toEqual([]);
    await session.screenshot('cielo-pases');
    await session.close();
  });

  it('highlights a pass on hover, and from the keyboard', async () => {
    const session = await host.show(client, html, result, { ready: 'svg[data-trayectorias]' });
    const { view } = session;
    await view.locator('#lista button').nth(1).hover();
    expect(await view.locator('g.pase.resaltado').getAttribute('data-pase')).toBe('1');
    expect(await view.locator('svg.atenuado').count()).toBe(1);

    await view.locator('#lista button').first().focus();
    await session.page.keyboard.press('Tab');
    await session.page.keyboard.press('Enter');
    expect(await view.locator('g.pase.resaltado').getAttribute('data-pase')).toBe('1');
    expect(await view.locator('#lista button[aria-pressed="true"]').getAttribute('data-pase')).toBe('1');
    expect(session.consoleErrors).toEqual([]);
    await session.close();
  });

  it("follows the host's theme, at start and when the host changes it", async () => {
    const session = await host.show(client, html, result, { theme: 'dark', ready: 'svg[data-trayectorias]' });
    const background = () => session.view.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(17, 24, 39)');
    await session.screenshot('cielo-pases-oscuro');
    await session.page.evaluate(() => window.hostBridge.setHostContext({ theme: 'light' }));
    await expect.poll(background).toBe('rgb(255, 255, 255)');
    expect(session.consoleErrors).toEqual([]);
    await session.close();
  });
});
