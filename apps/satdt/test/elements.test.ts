import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StdioPeer, spawnServerWithData } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { elementUpdate } from './helpers.js';

const UPDATE = elementUpdate();

let http: Server;
let url: string;
let body: string | undefined;
const dirs: string[] = [];
const track = trackPeers();

beforeAll(async () => {
  http = createServer((_, res) => {
    if (body === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/gp.tle`;
});
afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function spawn(env: Record<string, string>, args: string[] = []): StdioPeer {
  const dir = mkdtempSync(join(tmpdir(), 'satdt-mcp-elements-'));
  dirs.push(dir);
  return track(spawnServerWithData('satdt', dir, args, env));
}

const structured = (m: { result?: unknown }) =>
  (m.result as { structuredContent: Record<string, unknown> }).structuredContent;

describe('satdt-mcp on current elements from an HTTP source', () => {
  it('actualizar_elementos takes newer sets in and notifies subscribers and the resource list', async () => {
    body = undefined;
    const peer = spawn({ SATDT_ELEMENTS_URL: url });
    await peer.initialize();
    await peer.request('resources/subscribe', { uri: 'satdt://satelites/25544' });
    await peer.request('resources/subscribe', { uri: 'satdt://satelites/20580' });
    await peer.request('resources/subscribe', { uri: 'satdt://catalogo' });
    body = UPDATE;
    const call = await peer.request('tools/call', { name: 'actualizar_elementos', arguments: {} });
    expect(structured(call)).toMatchObject({
      fuentes: [
        { origen: 'url', ubicacion: url, resultado: 'actualizada', actualizados: [25544], nuevos: [90001] },
      ],
    });
    const text = (call.result as { content: { text: string }[] }).content[0]!.text;
    expect(text).toContain('1 actualizados (25544), 1 nuevos (90001)');
    await peer.waitFor(
      (m) =>
        m.method === 'notifications/resources/updated' &&
        (m.params as { uri: string }).uri === 'satdt://satelites/25544',
    );
    await peer.waitFor((m) => m.method === 'notifications/resources/list_changed');
    await peer.waitFor(
      (m) =>
        m.method === 'notifications/resources/updated' &&
        (m.params as { uri: string }).uri === 'satdt://catalogo',
    );
    // Sent as the sets were swapped in, before the tool's answer; HST (20580) kept its set and is silent.
    const updated = peer.received.filter((m) => m.method === 'notifications/resources/updated');
    expect(updated.map((m) => (m.params as { uri: string }).uri).sort()).toEqual([
      'satdt://catalogo',
      'satdt://satelites/25544',
    ]);

    const info = await peer.request('tools/call', { name: 'satelite_info', arguments: { norad_id: 25544 } });
    expect(structured(info)).toMatchObject({
      epoca_tle: '2026-06-29T12:00:00.000Z',
      fuente_elementos: { origen: 'url', ubicacion: url, formato: 'tle' },
    });
    const newcomer = await peer.request('tools/call', {
      name: 'satelite_info',
      arguments: { norad_id: 90001 },
    });
    expect(structured(newcomer)).toMatchObject({ nombre: 'TEST OBJECT', cospar_id: '2026-001A' });
    const catalog = await peer.request('resources/read', { uri: 'satdt://catalogo' });
    const entries = JSON.parse((catalog.result as { contents: { text: string }[] }).contents[0]!.text)
      .satelites as {
      norad_id: number;
      fuente_elementos: { origen: string };
      antiguedad_elementos_dias: number;
    }[];
    expect(entries.find((e) => e.norad_id === 25544)!.fuente_elementos.origen).toBe('url');
    expect(entries.find((e) => e.norad_id === 20580)!.fuente_elementos.origen).toBe('catalogo_incluido');
    expect(entries.every((e) => typeof e.antiguedad_elementos_dias === 'number')).toBe(true);
    await peer.close();
  });

  it('is absent under --read-only', async () => {
    const peer = spawn({}, ['--read-only']);
    await peer.initialize();
    const list = await peer.request('tools/list');
    const names = (list.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain('satelite_info');
    expect(names).not.toContain('actualizar_elementos');
    await peer.close();
  });

  it.each([
    ['SATDT_ELEMENTS_REFRESH_H', '0', /SATDT_ELEMENTS_REFRESH_H/],
    ['SATDT_ELEMENTS_URL', 'ftp://example.org/gp.tle', /SATDT_ELEMENTS_URL/],
  ])('exits 2 with one line naming %s=%s', async (name, value, pattern) => {
    const peer = spawn({ [name]: value });
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    const stderr = peer.stderr.trim().split('\n');
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(pattern);
  });
});
