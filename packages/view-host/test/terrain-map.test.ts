import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, connectAppsClient, readView, ViewHost } from '../src/harness.js';

interface Celda {
  x: number;
  y: number;
}
interface Ruta {
  ruta_id: string;
  origen: Celda;
  destino: Celda;
  tramos: Array<{ desde: Celda; hasta: Celda }>;
}
interface Terreno {
  ancho: number;
  alto: number;
  rocas: number[];
}

// A message for a machine without Chromium is printed by sky-plot.test.ts; CI=true fails there.
describe.skipIf(!chromiumAvailable())(
  'terrain map of planificar_ruta and estado_rover in a real browser host',
  () => {
    let host: ViewHost;
    let client: Client;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'view-host-roverdt-'));
      [host, client] = await Promise.all([
        ViewHost.launch(),
        connectAppsClient('roverdt', { CODE_CLUSTER_DATA_DIR: dataDir }),
      ]);
    });
    afterAll(async () => {
      await host?.close();
      await client?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('draws the planned route through its cells over the terrain, with the rover, offline and without errors', async () => {
      const html = await readView(client, 'planificar_ruta');
      const result = (await client.callTool({
        name: 'planificar_ruta',
        arguments: { rover_id: 'rover-1', destino: { x: 100, y: 40 } },
      })) as CallToolResult;
      const ruta = result.structuredContent as unknown as Ruta;
      expect(ruta.tramos.length).toBeGreaterThan(1);
      const session = await host.show(client, html, result, { ready: '#grafico[data-listo] svg' });
      const { view } = session;

      // The route's polyline passes through the centre of each leg's end cell, north up (y grows north).
      const terreno = session.toolCalls.find((c) => c.params.name === 'terreno_rover')!.result
        .structuredContent as unknown as Terreno;
      const drawn = (await view.locator('polyline.ruta').getAttribute('points'))!
        .split(' ')
        .map((p) => p.split(',').map(Number))
        .map(([x, y]) => ({ x: Math.floor(x!), y: terreno.alto - 1 - Math.floor(y!) }));
      expect(drawn).toEqual([ruta.origen, ...ruta.tramos.map((t) => t.hasta)]);
      expect(drawn.at(-1)).toEqual(ruta.destino);
      expect(await view.locator('line.tramo').count()).toBe(ruta.tramos.length);
      expect(await view.locator('[data-marca="rover"]').count()).toBe(1);

      // What the canvas shows: a rock cell painted as a rock, an open cell as relief.
      const rock = terreno.rocas[0]!;
      const pixel = async (x: number, y: number) =>
        view.evaluate(
          ([px, py]) => {
            const c = document.getElementById('relieve') as HTMLCanvasElement;
            return [...(c.getContext('2d') as CanvasRenderingContext2D).getImageData(px!, py!, 1, 1).data];
          },
          [x, y],
        );
      expect(await pixel(rock % terreno.ancho, terreno.alto - 1 - Math.floor(rock / terreno.ancho))).toEqual([
        26, 26, 26, 255,
      ]);
      expect(await pixel(ruta.origen.x, terreno.alto - 1 - ruta.origen.y)).not.toEqual([26, 26, 26, 255]);

      // A text alternative that says what the picture says.
      const title = await view.locator('svg title#mapa-t').textContent();
      expect(title).toContain(`ruta ${ruta.ruta_id}`);
      expect(title).toContain(`${terreno.rocas.length} rocas`);

      expect(session.network).toEqual([]);
      expect(session.consoleErrors).toEqual([]);
      await session.screenshot('mapa-terreno');
      await session.close();
    });

    it('shows the rover with its latest route from estado_rover', async () => {
      const html = await readView(client, 'estado_rover');
      const result = (await client.callTool({
        name: 'estado_rover',
        arguments: { rover_id: 'rover-1' },
      })) as CallToolResult;
      const session = await host.show(client, html, result, { ready: '#grafico[data-listo] svg' });
      expect(await session.view.locator('polyline.ruta').count()).toBe(1);
      const pose = (result.structuredContent as { posicion: Celda & { rumbo_deg: number } }).posicion;
      const transform = await session.view.locator('[data-marca="rover"]').getAttribute('transform');
      expect(transform).toBe(`translate(${pose.x + 0.5} ${256 - pose.y - 0.5}) rotate(${pose.rumbo_deg})`);
      expect(session.consoleErrors).toEqual([]);
      await session.close();
    });

    it('follows the rover while ejecutar_ruta drives the route it shows, then stops asking', async () => {
      const html = await readView(client, 'planificar_ruta');
      const planned = (await client.callTool({
        name: 'planificar_ruta',
        arguments: { rover_id: 'rover-1', destino: { x: 60, y: 70 } },
      })) as CallToolResult;
      const ruta = planned.structuredContent as unknown as Ruta;
      const session = await host.show(client, html, planned, { ready: '#grafico[data-listo] svg' });
      const { view } = session;
      expect(await view.locator('#grafico').getAttribute('data-estado-ruta')).toBe('planificada');

      // The model drives the route in another call; the view only watches, through the host.
      const driven = (await client.callTool({
        name: 'ejecutar_ruta',
        arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
      })) as CallToolResult;
      expect((driven.structuredContent as { estado: string }).estado).toBe('completada');
      await view.locator('#grafico[data-estado-ruta="completada"]').waitFor({ timeout: 10_000 });
      const transform = await view.locator('[data-marca="rover"]').getAttribute('transform');
      expect(transform).toMatch(
        new RegExp(`^translate\\(${ruta.destino.x + 0.5} ${256 - ruta.destino.y - 0.5}\\) `),
      );
      expect(await view.locator('#estado').textContent()).toContain(
        `rover en (${ruta.destino.x}, ${ruta.destino.y})`,
      );

      // Once the route is over the view stops asking: no terreno_rover call in the next three intervals.
      const asked = () => session.toolCalls.filter((c) => c.params.name === 'terreno_rover').length;
      const before = asked();
      expect(before).toBeGreaterThan(1);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(asked()).toBe(before);
      expect(session.consoleErrors).toEqual([]);
      await session.close();
    });
  },
);
