import { connectInMemory } from '@code-cluster/testkit/in-memory';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createKitServer,
  Logger,
  MAX_SUBSCRIPTIONS_PER_SESSION,
  type ResourceSubscriptions,
  type ServerDefinition,
} from '../src/index.js';

/** A tiny real store of notes: each note can change, and says so to whoever watches it. */
class Notes {
  private readonly texts = new Map<string, string>();
  private readonly listeners = new Map<string, Set<() => void>>();

  write(id: string, text: string): void {
    this.texts.set(id, text);
    for (const listener of this.listeners.get(id) ?? []) listener();
  }
  read(id: string): string | undefined {
    return this.texts.get(id);
  }
  watch(id: string, listener: () => void): () => void {
    const set = this.listeners.get(id) ?? new Set();
    set.add(listener);
    this.listeners.set(id, set);
    return () => set.delete(listener);
  }
  watchers(id?: string): number {
    if (id) return this.listeners.get(id)?.size ?? 0;
    return [...this.listeners.values()].reduce((n, s) => n + s.size, 0);
  }
}

const NOTE_URI = /^nota:\/\/notas\/([a-z0-9-]{1,20})$/;
const uri = (id: string) => `nota://notas/${id}`;

function subscriptions(notes: Notes): ResourceSubscriptions {
  return {
    templates: ['nota://notas/{id}'],
    matches: (u) => NOTE_URI.test(u),
    // Asynchronous on purpose, like a watcher that must first read where the log stands.
    watch: async (u, onChange) => notes.watch(NOTE_URI.exec(u)![1]!, onChange),
  };
}

function definition(withSubscriptions: boolean): ServerDefinition<Notes> {
  return {
    name: 'notas-mcp',
    version: '0.0.0',
    title: 'Notas',
    instructions: 'Servidor de prueba.',
    tools: [],
    resources: (server, notes) => {
      server.registerResource(
        'nota',
        new ResourceTemplate('nota://notas/{id}', { list: undefined }),
        { mimeType: 'text/plain' },
        (u, { id }) => ({ contents: [{ uri: u.href, text: notes.read(String(id)) ?? '' }] }),
      );
    },
    ...(withSubscriptions ? { subscriptions } : {}),
  };
}

const sessions: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close().catch(() => {});
});

async function connect(notes: Notes, withSubscriptions = true) {
  const server = createKitServer(definition(withSubscriptions), {
    deps: notes,
    logger: new Logger('test', 'emergency'),
  });
  const connection = await connectInMemory(server);
  sessions.push(connection);
  const updates: string[] = [];
  connection.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    updates.push(n.params.uri);
  });
  return { ...connection, updates };
}

/** Lets queued notifications cross the in-memory transport. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

const rpcError = (client: Client, method: 'resources/subscribe' | 'resources/unsubscribe', u: string) =>
  (method === 'resources/subscribe'
    ? client.subscribeResource({ uri: u })
    : client.unsubscribeResource({ uri: u })
  ).then(
    () => undefined,
    (error: { code: number; message: string }) => error,
  );

describe('resource subscriptions', () => {
  it('declares resources.subscribe only when the server offers subscriptions', async () => {
    const { client } = await connect(new Notes());
    expect(client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const plain = await connect(new Notes(), false);
    expect(plain.client.getServerCapabilities()?.resources?.subscribe).toBeUndefined();
    // The SDK client refuses to even send it; on the wire the server answers -32601.
    await expect(
      plain.client.request(
        { method: 'resources/subscribe', params: { uri: uri('a') } },
        ResourceUpdatedNotificationSchema.shape.params.partial(),
      ),
    ).rejects.toMatchObject({ code: -32601 });
  });

  it('sends exactly one resources/updated per change of a subscribed resource', async () => {
    const notes = new Notes();
    const { client, updates } = await connect(notes);
    expect(await client.subscribeResource({ uri: uri('a') })).toEqual({});
    notes.write('a', 'primera');
    await settle();
    expect(updates).toEqual([uri('a')]);
    notes.write('a', 'segunda');
    await settle();
    expect(updates).toEqual([uri('a'), uri('a')]);
  });

  it('sends nothing for a resource the session did not subscribe to', async () => {
    const notes = new Notes();
    const { client, updates } = await connect(notes);
    await client.subscribeResource({ uri: uri('a') });
    notes.write('b', 'otra nota');
    await settle();
    expect(updates).toEqual([]);
  });

  it('stops notifying and stops watching after unsubscribe', async () => {
    const notes = new Notes();
    const { client, updates } = await connect(notes);
    await client.subscribeResource({ uri: uri('a') });
    expect(notes.watchers('a')).toBe(1);
    expect(await client.unsubscribeResource({ uri: uri('a') })).toEqual({});
    expect(notes.watchers('a')).toBe(0);
    notes.write('a', 'cambio');
    await settle();
    expect(updates).toEqual([]);
    // Unsubscribing from something not subscribed is harmless.
    expect(await client.unsubscribeResource({ uri: uri('zz') })).toEqual({});
  });

  it('keeps one watcher per resource when a client subscribes twice', async () => {
    const notes = new Notes();
    const { client, updates } = await connect(notes);
    await Promise.all([
      client.subscribeResource({ uri: uri('a') }),
      client.subscribeResource({ uri: uri('a') }),
    ]);
    expect(notes.watchers('a')).toBe(1);
    notes.write('a', 'x');
    await settle();
    expect(updates).toEqual([uri('a')]);
  });

  it('refuses a URI that is not subscribable with -32602 naming the templates', async () => {
    const notes = new Notes();
    const { client } = await connect(notes);
    for (const bad of ['nota://otras/a', 'nota://notas/MAYUSCULAS', 'no es una uri']) {
      const error = await rpcError(client, 'resources/subscribe', bad);
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain('not subscribable');
      expect(error?.message).toContain('nota://notas/{id}');
    }
    expect((await rpcError(client, 'resources/unsubscribe', 'nota://otras/a'))?.code).toBe(-32602);
    expect(notes.watchers()).toBe(0);
  });

  it('accepts a URI of another scheme as an inert subscription that never notifies', async () => {
    const notes = new Notes();
    const { client, updates } = await connect(notes);
    expect(await client.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
    expect(await client.subscribeResource({ uri: 'https://example.com/x' })).toEqual({});
    notes.write('a', 'cambio');
    await settle();
    expect(updates).toEqual([]);
    expect(notes.watchers()).toBe(0);
    expect(await client.unsubscribeResource({ uri: 'test://watched-resource' })).toEqual({});
  });

  it('refuses a malformed subscribe request with -32602 through the protocol guard', async () => {
    const { client } = await connect(new Notes());
    const error = await client
      .request(
        { method: 'resources/subscribe', params: { uri: 42 } as never },
        ResourceUpdatedNotificationSchema.shape.params.partial(),
      )
      .catch((e: { code: number }) => e);
    expect(error).toMatchObject({ code: -32602 });
  });

  it('notifies only the sessions subscribed to the resource', async () => {
    const notes = new Notes();
    const first = await connect(notes);
    const second = await connect(notes);
    const third = await connect(notes);
    await first.client.subscribeResource({ uri: uri('a') });
    await second.client.subscribeResource({ uri: uri('b') });
    notes.write('a', 'x');
    await settle();
    expect(first.updates).toEqual([uri('a')]);
    expect(second.updates).toEqual([]);
    expect(third.updates).toEqual([]);
  });

  it('stops every watcher of a session when it closes', async () => {
    const notes = new Notes();
    const session = await connect(notes);
    const other = await connect(notes);
    await session.client.subscribeResource({ uri: uri('a') });
    await session.client.subscribeResource({ uri: uri('b') });
    await other.client.subscribeResource({ uri: uri('a') });
    expect(notes.watchers()).toBe(3);
    await session.close();
    await settle();
    expect(notes.watchers()).toBe(1);
    notes.write('a', 'x');
    await settle();
    expect(session.updates).toEqual([]);
    expect(other.updates).toEqual([uri('a')]);
  });

  it(`bounds a session to ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions`, async () => {
    const notes = new Notes();
    const { client } = await connect(notes);
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_SESSION; i++)
      await client.subscribeResource({ uri: uri(`n${i}`) });
    const error = await rpcError(client, 'resources/subscribe', uri('una-mas'));
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain(`${MAX_SUBSCRIPTIONS_PER_SESSION}`);
    expect(notes.watchers()).toBe(MAX_SUBSCRIPTIONS_PER_SESSION);
  });
});
