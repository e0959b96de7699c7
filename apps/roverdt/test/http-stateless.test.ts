// The repro over `--transport http --stateless`: each POST gets its own server, yet a
// `notifications/cancelled` (another POST) must stop the `ejecutar_ruta` in flight.

import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { serverBin, type WireMessage } from '@code-cluster/testkit';
import {
  ACCEPT_BOTH,
  HttpServerProcess,
  postMessage,
  readSse,
  type SseEvent,
} from '@code-cluster/testkit/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoverData, RutaData } from '../src/format.js';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
let server: HttpServerProcess;
beforeAll(async () => {
  server = await HttpServerProcess.start(serverBin('roverdt'), ['--stateless'], {
    env: { ...process.env, CODE_CLUSTER_DATA_DIR: data.dir, ROVERDT_LEG_DELAY_MS: '150' },
  });
});
afterAll(async () => {
  await server.stop('SIGKILL');
  data.remove();
});

const HEADERS = { 'mcp-protocol-version': '2025-11-25' };
let nextId = 1;
const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
  const reply = await postMessage(
    server.url,
    { jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name, arguments: args } },
    HEADERS,
  );
  return (reply.messages[0]?.result as { structuredContent: T } | undefined)?.structuredContent as T;
};

describe('roverdt-mcp --stateless: cancelling ejecutar_ruta', () => {
  it('stops the route early on the first progress; the route stays active, half done', async () => {
    const ruta = await call<RutaData>('planificar_ruta', { rover_id: 'rover-1', destino: { x: 50, y: 110 } });
    expect(ruta.tramos.length).toBeGreaterThan(2);
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...HEADERS },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'conducir',
        method: 'tools/call',
        params: {
          name: 'ejecutar_ruta',
          arguments: { rover_id: 'rover-1', ruta_id: ruta.ruta_id },
          _meta: { progressToken: 'viaje' },
        },
      }),
    });
    const events: SseEvent[] = [];
    let cancelled = false;
    // Ends only when the server ends the stream: a cancelled call is never answered.
    for await (const event of readSse(Readable.fromWeb(response.body as WebStream))) {
      events.push(event);
      if (!cancelled && event.message?.method === 'notifications/progress') {
        cancelled = true;
        const reply = await postMessage(
          server.url,
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'conducir' } },
          HEADERS,
        );
        expect(reply.status).toBe(202);
      }
    }
    const messages = events.flatMap((e) => (e.message ? [e.message] : [])) as WireMessage[];
    expect(messages.some((m) => m.id === 'conducir')).toBe(false);
    const legs = messages.filter((m) => m.method === 'notifications/progress').length;
    expect(legs).toBeGreaterThan(0);
    expect(legs).toBeLessThan(ruta.tramos.length);
    const state = await call<RoverData>('estado_rover', { rover_id: 'rover-1' });
    expect(state).toMatchObject({ modo: 'en_ruta', ruta_activa: ruta.ruta_id });
  });
});
