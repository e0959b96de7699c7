import { join } from 'node:path';
import { createKitServer, Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { HubClient } from '@code-cluster/shared/hub';
import { createHubSystem, type HubSystem } from '@code-cluster/systems/hub';
import { connectKitInMemory } from '@code-cluster/testkit/in-memory';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  type ClientCapabilities,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { hubServer } from '../src/server.js';

export { resourceText, tempDataDir, textOf } from '@code-cluster/testkit';

export const quietLogger = () => new Logger('hub-mcp-test', 'emergency');

export interface Embedded {
  system: HubSystem;
  /** Opens one more MCP session on the same hub (another client of the same server process). */
  connect(options?: {
    readOnly?: boolean;
    protocolVersion?: string;
    /** What the test client declares (sampling, …); none by default. */
    capabilities?: ClientCapabilities;
  }): Promise<Session>;
  close(): Promise<void>;
}

export interface Session {
  client: Client;
  /** URIs of the notifications/resources/updated received, in order. */
  updates: string[];
  close(): Promise<void>;
}

/** hub-mcp over an embedded hub in a temp dir, with as many real SDK client sessions as a test needs. */
export function embeddedHub(dir: string): Embedded {
  const system = createHubSystem({ file: join(dir, 'hub.db') });
  const hub = new HubClient(
    inProcessTransport(() => system.handler),
    { watcher: system.watcher },
  );
  const sessions: Session[] = [];
  return {
    system,
    async connect(options = {}) {
      const connection = await connectKitInMemory(
        createKitServer,
        hubServer,
        { hub },
        { logger: quietLogger(), ...options },
      );
      const updates: string[] = [];
      connection.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updates.push(n.params.uri);
      });
      const session = { client: connection.client, updates, close: connection.close };
      sessions.push(session);
      return session;
    },
    async close() {
      for (const session of sessions.splice(0)) await session.close().catch(() => {});
      system.close();
    },
  };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
