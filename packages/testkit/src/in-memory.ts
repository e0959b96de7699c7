import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * Anything that connects like a KitServer (kept structural: mcp-kit's own tests use testkit, so testkit
 * cannot depend on mcp-kit).
 */
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
  options: { protocolVersion?: string | undefined; capabilities?: ClientOptions['capabilities'] } = {},
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

/** mcp-kit's `createKitServer`, structurally (see Connectable). */
export type KitFactory<Definition, Deps, Logger> = (
  definition: Definition,
  options: { deps: Deps; logger: Logger; readOnly?: boolean; toolTimeoutMs?: number },
) => Connectable;

export interface KitConnectOptions<Logger> {
  logger: Logger;
  readOnly?: boolean | undefined;
  protocolVersion?: string | undefined;
  /** What the client declares (elicitation, sampling, roots…); none by default. */
  capabilities?: ClientOptions['capabilities'] | undefined;
  toolTimeoutMs?: number | undefined;
  /** Runs after the client and the server have closed (the embedded system, its temp dir). */
  afterClose?: () => void;
}

/**
 * An app's server built from its definition and deps (what its bin serves), connected to a real SDK client
 * in the same process. `createKitServer` is passed in by the caller (see Connectable).
 */
export async function connectKitInMemory<Definition, Deps, Logger>(
  createKitServer: KitFactory<Definition, Deps, Logger>,
  definition: Definition,
  deps: Deps,
  { logger, readOnly, protocolVersion, capabilities, toolTimeoutMs, afterClose }: KitConnectOptions<Logger>,
): Promise<{ client: Client; close(): Promise<void> }> {
  const server = createKitServer(definition, {
    deps,
    logger,
    ...(readOnly ? { readOnly } : {}),
    ...(toolTimeoutMs ? { toolTimeoutMs } : {}),
  });
  const connection = await connectInMemory(server, {
    protocolVersion,
    ...(capabilities ? { capabilities } : {}),
  });
  return {
    client: connection.client,
    close: async () => {
      await connection.close();
      afterClose?.();
    },
  };
}
