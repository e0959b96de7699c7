import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { HubClient } from '@code-cluster/shared/hub';
import { createHubSystem, type HubSystem } from '@code-cluster/systems/hub';
import { connectInMemory } from '@code-cluster/testkit/in-memory';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../src/server.js';

export const quietLogger = () => new Logger('hub-mcp-test', 'emergency');

/** A fresh data dir for one test file: never the user's own. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hub-mcp-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Embedded {
  system: HubSystem;
  /** Opens one more MCP session on the same hub (another client of the same server process). */
  connect(options?: { readOnly?: boolean; protocolVersion?: string }): Promise<Session>;
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
      const server = createServer(
        { hub },
        { logger: quietLogger(), ...(options.readOnly ? { readOnly: true } : {}) },
      );
      const connection = await connectInMemory(
        server,
        options.protocolVersion ? { protocolVersion: options.protocolVersion } : {},
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

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of the first content of a resource read. */
export function resourceText(result: { contents: Array<Record<string, unknown>> }): string {
  return String(result.contents[0]?.text);
}

export const settle = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
