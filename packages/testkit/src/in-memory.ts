import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Anything that connects like a KitServer (kept structural so testkit does not depend on mcp-kit). */
export interface Connectable {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SDK client connected to a server in the same process: the full JSON-RPC exchange, the protocol
 * guard included, without a child process. For contract tests.
 */
export async function connectInMemory(
  server: Connectable,
  options: { protocolVersion?: string; capabilities?: ClientOptions['capabilities'] } = {},
): Promise<{ client: Client; close(): Promise<void> }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'testkit-in-memory', version: '0.0.0' },
    {
      capabilities: options.capabilities ?? {},
    },
  );
  if (options.protocolVersion) {
    // The SDK client always offers its newest version; pin another by rewriting the offer on the wire.
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, opts) => {
      const m = message as { method?: string; params?: Record<string, unknown> };
      if (m.method === 'initialize') m.params = { ...m.params, protocolVersion: options.protocolVersion };
      return send(message, opts);
    };
  }
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
