// The client features a tool may use (elicitation, sampling, roots), through a real SDK Client that
// declares them, or not, over the in-memory transport.

import { HttpServerProcess } from '@code-cluster/testkit/http';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  type ElicitResult,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createKitServer, defineTool, Logger, type ServerDefinition } from '../src/index.js';
import { FIXTURE_BIN } from './global-setup.js';

const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Each tool reports the helper's answer as JSON, so the tests read exactly what a tool would get. */
const definition: ServerDefinition<Record<string, never>> = {
  name: 'cliente-mcp',
  version: '0.0.0',
  title: 'Cliente',
  instructions: 'Servidor de prueba.',
  tools: [
    defineTool({
      name: 'confirmar',
      title: 'confirmar',
      toolset: 'prueba',
      description: 'Pide una confirmación. Úsala para probar.',
      input: z.strictObject({}),
      annotations: read,
      timeoutMs: 1500,
      async handler(_args, { confirm }) {
        return { text: JSON.stringify(await confirm('¿Seguro?')) };
      },
    }),
    defineTool({
      name: 'elegir',
      title: 'elegir',
      toolset: 'prueba',
      description: 'Pide una opción. Úsala para probar.',
      input: z.strictObject({}),
      annotations: read,
      async handler(_args, { elicit }) {
        const schema = {
          type: 'object' as const,
          properties: { p1: { type: 'string' as const, enum: ['a', 'b'] } },
          required: ['p1'],
        };
        return { text: JSON.stringify(await elicit('Elige', schema)) };
      },
    }),
    defineTool({
      name: 'muestrear',
      title: 'muestrear',
      toolset: 'prueba',
      description: 'Pide texto al modelo. Úsala para probar.',
      input: z.strictObject({}),
      annotations: read,
      async handler(_args, { sample }) {
        return { text: JSON.stringify(await sample({ prompt: 'Resume', maxTokens: 50 })) };
      },
    }),
    defineTool({
      name: 'ofrece',
      title: 'ofrece',
      toolset: 'prueba',
      description: 'Dice qué ofrece el cliente. Úsala para probar.',
      input: z.strictObject({}),
      annotations: read,
      async handler(_args, { clientOffers }) {
        const features = ['elicitation', 'sampling', 'roots'] as const;
        return { text: JSON.stringify({ status: 'ok', value: features.filter((f) => clientOffers(f)) }) };
      },
    }),
    defineTool({
      name: 'raices',
      title: 'raices',
      toolset: 'prueba',
      description: 'Lee las raíces. Úsala para probar.',
      input: z.strictObject({}),
      annotations: read,
      async handler(_args, { roots }) {
        return { text: JSON.stringify(await roots()) };
      },
    }),
  ],
};

async function connect(capabilities: ClientOptions['capabilities'], stateless = false) {
  const kit = createKitServer(definition, {
    deps: {},
    logger: new Logger('cliente-mcp', 'error'),
    stateless,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await kit.connect(serverSide);
  const client = new Client({ name: 'prueba', version: '0.0.0' }, { capabilities });
  return { client, kit, ready: () => client.connect(clientSide) };
}

async function call(client: Client, name: string) {
  const result = await client.callTool({ name, arguments: {} });
  expect(result.isError).toBeFalsy();
  return JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '') as {
    status: string;
    value?: unknown;
    message?: string;
  };
}

describe('elicitation', () => {
  const answering = async (answer: ElicitResult | (() => Promise<ElicitResult>)) => {
    const { client, ready } = await connect({ elicitation: { form: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return typeof answer === 'function' ? answer() : answer;
    });
    await ready();
    return { client, asked };
  };

  it('confirm: accepted only when the person ticks the box', async () => {
    const { client, asked } = await answering({ action: 'accept', content: { confirmar: true } });
    expect(await call(client, 'confirmar')).toEqual({ status: 'accepted', value: true });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'form', message: '¿Seguro?' });
  });

  it('confirm: an accepted form with the box unticked is a refusal', async () => {
    const { client } = await answering({ action: 'accept', content: { confirmar: false } });
    expect(await call(client, 'confirmar')).toMatchObject({ status: 'declined' });
  });

  it('confirm: decline and cancel come back as such, with a sentence for the result', async () => {
    const declined = await answering({ action: 'decline' });
    expect(await call(declined.client, 'confirmar')).toEqual({
      status: 'declined',
      message: 'La persona rechazó la petición.',
    });
    const cancelled = await answering({ action: 'cancel' });
    expect(await call(cancelled.client, 'confirmar')).toEqual({
      status: 'cancelled',
      message: 'La persona cerró la petición sin responder.',
    });
  });

  it('a question nobody answers ends before the tool timeout, as an answer the tool can report', async () => {
    const { client } = await answering(() => new Promise<ElicitResult>(() => {}));
    const answer = await call(client, 'confirmar');
    expect(answer.status).toBe('timeout');
    expect(answer.message).toMatch(/^No llegó respuesta a la pregunta en [\d.]+ s\.$/);
  });

  it('elicit returns the form content, checked against the schema', async () => {
    const { client } = await answering({ action: 'accept', content: { p1: 'b' } });
    expect(await call(client, 'elegir')).toEqual({ status: 'accepted', value: { p1: 'b' } });
    const wrong = await answering({ action: 'accept', content: { p1: 'z' } });
    expect(await call(wrong.client, 'elegir')).toMatchObject({ status: 'cancelled' });
  });

  it('a client without elicitation is never asked', async () => {
    const { client, ready } = await connect({});
    await ready();
    expect(await call(client, 'confirmar')).toEqual({
      status: 'unavailable',
      message: "El cliente no ofrece confirmaciones ni datos (no declara 'elicitation').",
    });
  });
});

describe('sampling', () => {
  it('asks the client model with includeContext none and the token cap', async () => {
    const { client, ready } = await connect({ sampling: {} });
    const asked: Array<Record<string, unknown>> = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params);
      return { role: 'assistant', model: 'modelo-x', content: { type: 'text', text: 'Un resumen.' } };
    });
    await ready();
    expect(await call(client, 'muestrear')).toEqual({
      status: 'accepted',
      value: { text: 'Un resumen.', model: 'modelo-x' },
    });
    expect(asked[0]).toMatchObject({ includeContext: 'none', maxTokens: 50 });
  });

  it('a client that refuses the request gives a non-accepted answer, not a failed call', async () => {
    const { client, ready } = await connect({ sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      throw new Error('el usuario no lo permitió');
    });
    await ready();
    const answer = await call(client, 'muestrear');
    expect(answer.status).toBe('cancelled');
    expect(answer.message).toContain('el usuario no lo permitió');
  });

  it('a client without sampling is never asked', async () => {
    const { client, ready } = await connect({});
    await ready();
    expect(await call(client, 'muestrear')).toMatchObject({ status: 'unavailable' });
  });
});

describe('roots', () => {
  it('asks once, and again after notifications/roots/list_changed', async () => {
    const { client, ready } = await connect({ roots: { listChanged: true } });
    let roots = [{ uri: 'file:///tmp/uno', name: 'uno' }];
    let asked = 0;
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked += 1;
      return { roots };
    });
    await ready();
    expect(await call(client, 'raices')).toEqual({ status: 'accepted', value: roots });
    expect(await call(client, 'raices')).toEqual({ status: 'accepted', value: roots });
    expect(asked).toBe(1);

    roots = [{ uri: 'file:///tmp/dos', name: 'dos' }];
    await client.sendRootsListChanged();
    expect(await call(client, 'raices')).toEqual({ status: 'accepted', value: roots });
    expect(asked).toBe(2);
  });

  it('a client without roots is never asked', async () => {
    const { client, ready } = await connect({});
    await ready();
    expect(await call(client, 'raices')).toMatchObject({ status: 'unavailable' });
  });
});

describe('clientOffers', () => {
  it('names exactly the features the client declared', async () => {
    const some = await connect({ sampling: {}, roots: {} });
    await some.ready();
    expect(await call(some.client, 'ofrece')).toEqual({ status: 'ok', value: ['sampling', 'roots'] });
    const none = await connect({});
    await none.ready();
    expect(await call(none.client, 'ofrece')).toEqual({ status: 'ok', value: [] });
  });
});

describe('--stateless', () => {
  it('refuses every feature at once, even to a client that declares them all', async () => {
    const { client, ready } = await connect({ elicitation: { form: {} }, sampling: {}, roots: {} }, true);
    const never = () => {
      throw new Error('a stateless server must not send requests to the client');
    };
    client.setRequestHandler(ElicitRequestSchema, never);
    client.setRequestHandler(CreateMessageRequestSchema, never);
    client.setRequestHandler(ListRootsRequestSchema, never);
    await ready();
    expect(await call(client, 'ofrece')).toEqual({ status: 'ok', value: [] });
    for (const name of ['confirmar', 'elegir', 'muestrear', 'raices']) {
      const answer = await call(client, name);
      expect(answer.status).toBe('unavailable');
      expect(answer.message).toMatch(/^Este servidor funciona sin estado \(--stateless\)/);
    }
  });
});

describe('over real Streamable HTTP (the built fixture server)', () => {
  const servers: HttpServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
  });
  const confirmOver = async (args: string[]) => {
    const server = await HttpServerProcess.start(FIXTURE_BIN, args);
    servers.push(server);
    const client = new Client({ name: 'prueba', version: '0.0.0' }, { capabilities: { elicitation: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked += 1;
      return { action: 'accept', content: { confirmar: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const answer = await call(client, 'confirmar');
    await client.close();
    return { answer, asked };
  };

  it('a session asks on the call stream and gets the answer', async () => {
    expect(await confirmOver([])).toEqual({ answer: { status: 'accepted', value: true }, asked: 1 });
  });

  it('--stateless refuses with a clear message instead of hanging', async () => {
    const { answer, asked } = await confirmOver(['--stateless']);
    expect(asked).toBe(0);
    expect(answer).toEqual({
      status: 'unavailable',
      message:
        'Este servidor funciona sin estado (--stateless) y no puede pedir confirmaciones ni datos al cliente ' +
        '(elicitation/create): la respuesta llegaría a otra petición.',
    });
  });
});
