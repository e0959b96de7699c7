#!/usr/bin/env node
// The official SDK's Streamable HTTP server as its examples write it (simpleStreamableHttp.ts,
// jsonResponseStreamableHttp.ts), on node:http instead of Express: McpServer + a stateful
// StreamableHTTPServerTransport per session (sessionIdGenerator: randomUUID, stored by
// onsessioninitialized, removed by onclose), one tool `satelite_info` doing the same work as satdt-mcp's:
// it asks the same embedded satdt system (packages/systems, built) through the same REST client, so the
// comparison isolates what the servers add around a tool, not the tool. Like the examples'
// createMcpExpressApp() on a loopback bind, it checks the Host header (localhostHostValidation); it has no
// Origin check and no authentication. Plain ESM, unbundled; the SDK and zod are packages/mcp-kit's copies,
// loaded through their ESM entry points.
//
//   node scripts/bench/anchors/sdk-http.mjs [--port N] [--json]
// --port 0 (the default) picks a free port; the bound URL is printed on stderr as
// `sdk-http: listening on http://127.0.0.1:PORT/mcp`. --json answers POSTs with JSON instead of SSE.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { esmEntry } from '../lib/esm-entry.mjs';

const here = dirname(fileURLToPath(import.meta.url));

const { McpServer } = await import(esmEntry('@modelcontextprotocol/sdk', 'server/mcp.js'));
const { StreamableHTTPServerTransport } = await import(
  esmEntry('@modelcontextprotocol/sdk', 'server/streamableHttp.js')
);
const { isInitializeRequest } = await import(esmEntry('@modelcontextprotocol/sdk', 'types.js'));
const { z } = await import(esmEntry('zod'));
const { inProcessTransport } = await import(
  pathToFileURL(join(here, '../../../packages/shared/dist/index.js')).href
);
const { SatdtClient } = await import(
  pathToFileURL(join(here, '../../../packages/shared/dist/satdt/index.js')).href
);
const { createSatdtSystem } = await import(
  pathToFileURL(join(here, '../../../packages/systems/dist/satdt/index.js')).href
);
const satdt = new SatdtClient(inProcessTransport(() => createSatdtSystem().handler));

const argv = process.argv.slice(2);
const portArg = argv.indexOf('--port');
const PORT = portArg === -1 ? 0 : Number(argv[portArg + 1]);
const JSON_RESPONSE = argv.includes('--json');
const ALLOWED_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

const getServer = () => {
  const server = new McpServer({ name: 'sdk-http', version: '0.0.0' });
  server.registerTool(
    'satelite_info',
    {
      title: 'Información de un satélite',
      description: 'Datos de catálogo de un satélite.',
      inputSchema: { norad_id: z.number() },
    },
    async ({ norad_id }, { signal }) => {
      const sat = await satdt.getSatellite(norad_id, signal);
      const text = `${sat.name} (NORAD ${sat.norad_id}, COSPAR ${sat.cospar_id}): ${sat.regime}, ${sat.status}.`;
      return { content: [{ type: 'text', text }], structuredContent: sat };
    },
  );
  return server;
};

/** Session id → transport. */
const transports = {};

const sendJsonRpcError = (res, status, code, message) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
};

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const httpServer = createServer(async (req, res) => {
  try {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mcp') {
      sendJsonRpcError(res, 404, -32000, 'Not found');
      return;
    }
    let hostname;
    try {
      hostname = new URL(`http://${req.headers.host}`).hostname;
    } catch {}
    if (!ALLOWED_HOSTS.includes(hostname)) {
      sendJsonRpcError(res, 403, -32000, `Invalid Host: ${hostname}`);
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (req.method !== 'POST') {
      if (!sessionId || !transports[sessionId]) {
        sendJsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
        return;
      }
      await transports[sessionId].handleRequest(req, res);
      return;
    }
    const body = await readJson(req);
    let transport;
    if (sessionId && transports[sessionId]) {
      transport = transports[sessionId];
    } else if (!sessionId && isInitializeRequest(body)) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: JSON_RESPONSE,
        onsessioninitialized: (id) => {
          transports[id] = transport;
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) delete transports[transport.sessionId];
      };
      await getServer().connect(transport);
    } else if (sessionId) {
      sendJsonRpcError(res, 404, -32001, 'Session not found');
      return;
    } else {
      sendJsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
      return;
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    process.stderr.write(`sdk-http: ${error?.stack ?? error}\n`);
    if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
  }
});

httpServer.listen(PORT, '127.0.0.1', () => {
  process.stderr.write(`sdk-http: listening on http://127.0.0.1:${httpServer.address().port}/mcp\n`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
