// `--stateless` hub: no session and no GET stream, so no notifications/resources/updated can ever reach a
// client. It must not advertise subscriptions, and must refuse one clearly instead of accepting it.
import { serverBin } from '@code-cluster/testkit';
import { HttpServerProcess, postMessage } from '@code-cluster/testkit/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
let server: HttpServerProcess;
beforeAll(async () => {
  server = await HttpServerProcess.start(serverBin('hub'), ['--stateless'], {
    env: { ...process.env, CODE_CLUSTER_DATA_DIR: data.dir },
  });
});
afterAll(async () => {
  await server.stop('SIGKILL');
  data.remove();
});

describe('hub-mcp --stateless: subscriptions', () => {
  it('advertises resources without subscribe', async () => {
    const reply = await postMessage(server.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    });
    const result = reply.messages[0]?.result as
      | { capabilities: { resources?: Record<string, unknown> } }
      | undefined;
    const capabilities = result?.capabilities;
    expect(capabilities?.resources).toBeDefined();
    expect(capabilities?.resources?.subscribe).toBeUndefined();
  });

  it('refuses resources/subscribe with an error that says why', async () => {
    for (const method of ['resources/subscribe', 'resources/unsubscribe']) {
      const reply = await postMessage(
        server.url,
        { jsonrpc: '2.0', id: 2, method, params: { uri: 'hub://topicos/contactos.orbiteye-mx' } },
        { 'mcp-protocol-version': '2025-11-25' },
      );
      expect(reply.messages[0]?.result).toBeUndefined();
      expect(reply.messages[0]?.error?.code).toBe(-32601);
      expect(reply.messages[0]?.error?.message).toContain('--stateless');
    }
  });
});
