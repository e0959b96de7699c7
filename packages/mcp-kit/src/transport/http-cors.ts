import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_METHODS = 'GET, POST, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version';
const PREFLIGHT_MAX_AGE_S = '600';

/**
 * CORS for the origins the OriginGuard already allowed (loopback ones and `--allowed-origins`): without it
 * a browser-hosted client the operator allowed still could not connect. Callers check the origin first;
 * a refused origin never gets these headers.
 */
export function allowOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  res.setHeader('Vary', 'Origin');
}

/** Answers a preflight (OPTIONS) of an allowed origin: 204 with what the MCP endpoint accepts. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  allowOrigin(res, req.headers.origin ?? '');
  res.writeHead(204, {
    'Access-Control-Allow-Methods': ALLOWED_METHODS,
    'Access-Control-Allow-Headers': ALLOWED_HEADERS,
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_S,
    'Content-Length': '0',
  });
  res.end();
}
