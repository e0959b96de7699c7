import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpTransport } from '../src/http.js';
import { RestClient, SystemError } from '../src/index.js';
import { inProcessTransport } from '../src/rest/in-process.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Server[] = [];

/** A real HTTP server on loopback whose answers the test scripts. */
async function serve(handler: Handler): Promise<string> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    handler(req, res, body);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

const json = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'content-type': type });
  res.end(JSON.stringify(body));
};
const Thing = z.object({ id: z.number(), name: z.string() });
const client = (baseUrl: string, token?: string) =>
  new RestClient(httpTransport({ baseUrl, ...(token ? { token } : {}) }), {
    systemName: 'sistema de prueba',
    backoffMs: 5,
  });

describe('RestClient over undici', () => {
  it('returns the zod-checked body of a 2xx, sending the bearer token and the query', async () => {
    let seen: IncomingMessage | undefined;
    const url = await serve((req, res) => {
      seen = req;
      json(res, 200, { id: 7, name: 'antena', extra: true });
    });
    const thing = await client(`${url}/api`, 's3cret').get('/things/7', Thing, {
      full: true,
      skip: undefined,
    });
    expect(thing).toEqual({ id: 7, name: 'antena' });
    expect(seen?.url).toBe('/api/things/7?full=true');
    expect(seen?.headers.authorization).toBe('Bearer s3cret');
  });

  it('turns an RFC 9457 problem into a domain error quoting its detail', async () => {
    const url = await serve((_req, res) =>
      json(
        res,
        409,
        { type: 'about:blank', title: 'Conflict', status: 409, detail: 'La estación está en mantenimiento' },
        'application/problem+json',
      ),
    );
    const error = await client(url)
      .get('/x', Thing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SystemError);
    expect(error).toMatchObject({
      kind: 'problem',
      status: 409,
      domain: true,
      message: 'La estación está en mantenimiento',
    });
  });

  it('retries a GET that fails with 5xx, with backoff, and succeeds', async () => {
    let attempts = 0;
    const url = await serve((_req, res) => {
      attempts++;
      if (attempts < 3) json(res, 503, { title: 'Unavailable', status: 503 });
      else json(res, 200, { id: 1, name: 'ok' });
    });
    expect(await client(url).get('/x', Thing)).toEqual({ id: 1, name: 'ok' });
    expect(attempts).toBe(3);
  });

  it('gives up after the bounded retries and says the system is unavailable', async () => {
    let attempts = 0;
    const url = await serve((_req, res) => {
      attempts++;
      json(res, 500, { title: 'boom', status: 500 });
    });
    const error = await client(url)
      .get('/x', Thing)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable', domain: true });
    expect((error as Error).message).toContain('sistema de prueba no está disponible');
    expect(attempts).toBe(3);
  });

  it('never retries a write', async () => {
    let attempts = 0;
    const url = await serve((_req, res) => {
      attempts++;
      json(res, 502, { title: 'bad gateway', status: 502 });
    });
    await expect(
      client(url).call({ method: 'POST', path: '/x', body: { a: 1 } }, Thing),
    ).rejects.toMatchObject({
      kind: 'unavailable',
    });
    expect(attempts).toBe(1);
  });

  it('does not retry a 507 (the system cannot store) and passes its detail on', async () => {
    let attempts = 0;
    const url = await serve((_req, res) => {
      attempts++;
      json(
        res,
        507,
        { title: 'Insufficient Storage', status: 507, detail: 'El disco del servidor está lleno' },
        'application/problem+json',
      );
    });
    const error = await client(url)
      .get('/things/1', Thing)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SystemError);
    expect(error).toMatchObject({
      kind: 'problem',
      status: 507,
      message: 'El disco del servidor está lleno',
    });
    expect(attempts).toBe(1);
  });

  it('reports a body that breaks the contract as a contract error', async () => {
    const url = await serve((_req, res) => json(res, 200, { id: 'seven' }));
    await expect(client(url).get('/x', Thing)).rejects.toMatchObject({ kind: 'contract' });
  });

  it('reports a closed port as unavailable', async () => {
    const url = await serve(() => {});
    await new Promise((r) => servers.pop()!.close(r));
    await expect(client(url).get('/x', Thing)).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('aborts the upstream request when the signal aborts, without retrying', async () => {
    let attempts = 0;
    let closedByClient = false;
    const url = await serve((req) => {
      attempts++;
      req.socket.on('close', () => {
        closedByClient = true;
      });
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelado')), 100);
    await expect(client(url).get('/slow', Thing, undefined, controller.signal)).rejects.toThrow('cancelado');
    await new Promise((r) => setTimeout(r, 100));
    expect(attempts).toBe(1);
    expect(closedByClient).toBe(true);
  });
});

describe('RestClient in process', () => {
  it('passes on, unretried, an embedded system that failed to load in words (its storage)', async () => {
    const failure = Object.assign(new Error('El directorio de datos del servidor no admite escritura'), {
      domain: true,
    });
    const rest = new RestClient(
      inProcessTransport(() => {
        throw failure;
      }),
      { systemName: 'embebido', backoffMs: 5 },
    );
    // The very error, not "no está disponible ahora (…). Vuelve a intentarlo en unos minutos".
    await expect(rest.get('/t', Thing)).rejects.toBe(failure);
  });

  it('calls the handler with the same request an HTTP server would see, loading it once', async () => {
    let loads = 0;
    const transport = inProcessTransport(() => {
      loads++;
      return async (request) => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: Number(request.query.get('id')),
          name: `${request.method} ${request.path} ${request.body}`,
        }),
      });
    });
    const rest = new RestClient(transport, { systemName: 'embebido' });
    expect(await rest.call({ method: 'PUT', path: '/t', query: { id: 3 }, body: { a: 1 } }, Thing)).toEqual({
      id: 3,
      name: 'PUT /t {"a":1}',
    });
    await rest.get('/t', Thing, { id: 4 });
    expect(loads).toBe(1);
  });
});
