import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverBin, tempDataDir } from '@code-cluster/testkit';
import { HttpServerProcess } from '@code-cluster/testkit/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { after } from './helpers.js';

const CONSULTA = 'consulta-token-0123456789abcdef';
const OPERADOR = 'operador-token-0123456789abcdef';

const data = tempDataDir();
const tokensFile = join(data.dir, 'tokens.json');
const env = () => {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith('GROUNDSTATION_') && !key.startsWith('MCP_'),
    ),
  );
  return { ...clean, CODE_CLUSTER_DATA_DIR: data.dir };
};

let server: HttpServerProcess;
const clients: Client[] = [];
beforeAll(async () => {
  writeFileSync(
    tokensFile,
    JSON.stringify([
      { token: CONSULTA, scope: 'consulta', label: 'panel de consulta' },
      { token: OPERADOR, scope: 'operador', label: 'turno de operación' },
    ]),
  );
  server = await HttpServerProcess.start(serverBin('groundstation'), ['--http-tokens-file', tokensFile], {
    env: env(),
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server?.stop('SIGTERM');
  data.remove();
});

async function open(token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'tokens-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const maintenance = {
  name: 'programar_mantenimiento',
  arguments: {
    estacion: 'orbiteye-mx',
    inicio: after(600, Date.now()),
    fin: after(660, Date.now()),
    motivo: 'prueba',
  },
};

describe('MCP_HTTP_TOKENS_FILE: one process, each HTTP session with the scope of its token', () => {
  it('gives an operator token the operator tools, and a consulta token none of them', async () => {
    const consulta = await open(CONSULTA);
    const operador = await open(OPERADOR);
    const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
    expect(await names(operador.client)).toContain('programar_mantenimiento');
    expect(await names(consulta.client)).not.toContain('programar_mantenimiento');
    const operatorOnly = ['programar_mantenimiento', 'cancelar_mantenimiento'];
    expect(await names(operador.client)).toEqual(expect.arrayContaining(operatorOnly));
    // A consulta session may ask for the rights instead (solicitar_acceso_operador); an operator's has them.
    expect(await names(consulta.client)).toEqual([
      ...(await names(operador.client)).filter((name) => !operatorOnly.includes(name)),
      'solicitar_acceso_operador',
    ]);

    const refused = await consulta.client.callTool(maintenance).then(
      () => undefined,
      (e: { code?: number; message?: string }) => e,
    );
    expect(refused?.code).toBe(-32602);
    expect(refused?.message).toContain("Herramienta desconocida: 'programar_mantenimiento'");

    const done = (await operador.client.callTool(maintenance)) as CallToolResult;
    expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
  });

  it("refuses one token's session to another token (404, as if it did not exist)", async () => {
    const operador = await open(OPERADOR);
    const sessionId = operador.transport.sessionId!;
    const reply = await fetch(server.url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${CONSULTA}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(reply.status).toBe(404);
    expect(await reply.text()).not.toContain('programar_mantenimiento');
  });

  it('refuses a token that is not in the file (401)', async () => {
    const reply = await fetch(server.url, {
      method: 'POST',
      headers: { Authorization: 'Bearer otro-token-0123456789abcdef', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(reply.status).toBe(401);
  });
});

describe('a bad tokens file stops the server (exit 2) without printing a token', () => {
  const startWith = async (content: string) => {
    const file = join(data.dir, `bad-${Math.random().toString(16).slice(2)}.json`);
    writeFileSync(file, content);
    const error = await HttpServerProcess.start(serverBin('groundstation'), ['--http-tokens-file', file], {
      env: env(),
    }).then(
      async (started) => {
        await started.stop('SIGKILL');
        return new Error('the server started');
      },
      (e: Error) => e,
    );
    return error.message;
  };

  it('names the entry and the bound for an unknown scope or a short token', async () => {
    const scope = await startWith(JSON.stringify([{ token: OPERADOR, scope: 'jefe', label: 'x' }]));
    expect(scope).toContain('invalid MCP_HTTP_TOKENS_FILE');
    expect(scope).toContain('at 0.scope');
    expect(scope).toContain('consulta');
    expect(scope).not.toContain(OPERADOR);
    const short = await startWith(
      JSON.stringify([{ token: 'corto-secreto', scope: 'consulta', label: 'x' }]),
    );
    expect(short).toContain('at 0.token: a token needs at least 16 characters');
    expect(short).not.toContain('corto-secreto');
  });
});
