// DESIGN.md §3 rule 8 over HTTP: the token a client presents to an MCP server is never passed on to the
// system behind it. The real satdt bin talks to a fake satdt system that records what it receives.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverBin } from '@code-cluster/testkit';
import { HttpServerProcess } from '@code-cluster/testkit/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLIENT_TOKEN = 'client-secret-token-aaaaaaaaaaaa';
const SYSTEM_TOKEN = 'system-secret-token-bbbbbbbbbbbb';

describe('satdt-mcp over Streamable HTTP: client tokens stay with the MCP server', () => {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  let system: Server;
  let mcp: HttpServerProcess;

  beforeAll(async () => {
    system = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: 'Not Found',
          status: 404,
          detail: 'satélite desconocido',
        }),
      );
    });
    await new Promise<void>((resolve) => system.listen(0, '127.0.0.1', resolve));
    const { port } = system.address() as AddressInfo;
    mcp = await HttpServerProcess.start(serverBin('satdt'), [], {
      env: {
        ...process.env,
        MCP_HTTP_TOKEN: CLIENT_TOKEN,
        SATDT_API_URL: `http://127.0.0.1:${port}`,
        SATDT_API_TOKEN: SYSTEM_TOKEN,
      },
    });
  });

  afterAll(async () => {
    await mcp?.stop('SIGKILL');
    system?.close();
  });

  it('calls the system with its own token, never the client one', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${CLIENT_TOKEN}`, 'x-forward-me': CLIENT_TOKEN } },
    });
    const client = new Client({ name: 'sdk-client', version: '1.0.0' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'satelite_info', arguments: { norad_id: 99999 } });
    expect(result.isError).toBe(true);
    await client.close();

    expect(seen.length).toBeGreaterThan(0);
    for (const request of seen) {
      expect(request.headers.authorization).toBe(`Bearer ${SYSTEM_TOKEN}`);
      expect(JSON.stringify(request.headers)).not.toContain(CLIENT_TOKEN);
      expect(request.url).not.toContain(CLIENT_TOKEN);
    }
  });
});
