import { Pool } from 'undici';
import { toSearchParams } from './in-process.js';
import type { RestRequest, RestResponse, RestTransport } from './types.js';

export interface HttpTransportOptions {
  /** Base URL of the system, e.g. `http://127.0.0.1:7401` or `https://satdt.example/api`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; the system's own credential, never a client's token. */
  token?: string;
  connections?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Largest response body accepted, in bytes. */
  maxBodyBytes?: number;
}

/** A keep-alive undici pool to one system. */
export function httpTransport(options: HttpTransportOptions): RestTransport {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/$/, '');
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const pool = new Pool(base.origin, {
    connections: options.connections ?? 8,
    connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    headersTimeout: options.headersTimeoutMs ?? 15_000,
    bodyTimeout: options.bodyTimeoutMs ?? 15_000,
    keepAliveTimeout: 30_000,
  });
  const authorization = options.token ? { authorization: `Bearer ${options.token}` } : {};

  return {
    async request(request: RestRequest, signal?: AbortSignal): Promise<RestResponse> {
      const query = toSearchParams(request.query).toString();
      const response = await pool.request({
        method: request.method,
        path: `${basePath}${request.path}${query ? `?${query}` : ''}`,
        headers: {
          accept: 'application/json, application/problem+json',
          ...authorization,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBodyBytes) {
          response.body.destroy();
          throw new Error(`response body over ${maxBodyBytes} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[key] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: response.statusCode, headers, body: Buffer.concat(chunks).toString('utf8') };
    },
    close: () => pool.close(),
  };
}
