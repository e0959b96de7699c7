import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpMethod, RestHandler, RestResponse } from '@code-cluster/shared';
import { HttpProblem, problemResponse } from './problem.js';

export interface ServeOptions {
  port?: number;
  /** Loopback unless told otherwise. */
  host?: string;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  maxBodyBytes?: number;
}

export interface RunningService {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const METHODS = new Set<HttpMethod>(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** Serves a system's RestHandler over real HTTP (the remote mode of the MCP servers talks to this). */
export async function serveHttp(handler: RestHandler, options: ServeOptions = {}): Promise<RunningService> {
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : undefined;

  const server = createServer(async (req, res) => {
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    let response: RestResponse;
    try {
      if (expected && !sameSecret(req.headers.authorization, expected)) {
        throw new HttpProblem(401, 'Unauthorized', 'Falta el token del sistema o no es válido');
      }
      const method = (req.method ?? 'GET') as HttpMethod;
      if (!METHODS.has(method))
        throw new HttpProblem(405, 'Method Not Allowed', `Método ${req.method} no admitido`);
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req, maxBodyBytes);
      response = await handler({
        method,
        path: url.pathname,
        query: url.searchParams,
        headers: flatHeaders(req),
        body,
        signal: abort.signal,
      });
    } catch (error) {
      response = problemResponse(
        error instanceof HttpProblem
          ? error
          : new HttpProblem(500, 'Internal Server Error', 'Error interno del sistema'),
      );
    }
    res.writeHead(response.status, {
      ...response.headers,
      'content-length': Buffer.byteLength(response.body),
      ...(response.status === 401 ? { 'www-authenticate': 'Bearer' } : {}),
    });
    res.end(response.body);
  });
  server.keepAliveTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sameSecret(given: string | undefined, expected: Buffer): boolean {
  if (!given) return false;
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpProblem(413, 'Content Too Large', `El cuerpo supera ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return size === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}
