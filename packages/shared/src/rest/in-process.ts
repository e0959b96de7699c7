import type { QueryValue, RestHandler, RestRequest, RestResponse, RestTransport } from './types.js';

export function toSearchParams(query: Record<string, QueryValue> | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  return params;
}

/**
 * Calls an embedded system's REST handler directly: no socket, no port, yet the same request and response
 * bytes as over HTTP, so the client cannot tell (and its zod checks run the same).
 */
export function inProcessTransport(load: () => RestHandler | Promise<RestHandler>): RestTransport {
  // Loaded on the first request: an embedded system is heavy, and a server must answer initialize fast.
  let handler: Promise<RestHandler> | undefined;
  return {
    async request(request: RestRequest, signal?: AbortSignal): Promise<RestResponse> {
      signal?.throwIfAborted();
      handler ??= Promise.resolve().then(load);
      const handle = await handler;
      return handle({
        method: request.method,
        path: request.path,
        query: toSearchParams(request.query),
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        ...(signal ? { signal } : {}),
      });
    },
  };
}
