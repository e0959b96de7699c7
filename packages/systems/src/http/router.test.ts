import { endpoint, inProcessTransport, RestClient, SystemError } from '@code-cluster/shared';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { refuse } from '../refusal.js';
import { type Handlers, Reply, routes } from './router.js';

const api = {
  item: endpoint({
    method: 'GET',
    path: '/v1/items/:id',
    params: z.object({ id: z.string().regex(/^i-\d+$/, 'i- y dígitos') }),
    query: z.object({ hours: z.coerce.number().int().min(1).max(168).default(24) }),
    response: z.object({ id: z.string(), hours: z.number() }),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v1/items',
    body: z.strictObject({ name: z.string().min(1).max(8) }),
    response: z.object({ id: z.string() }),
  }),
};

const handlers: Handlers<typeof api> = {
  item: ({ params, query }) => {
    if (params.id === 'i-0') throw refuse.notFound('No existe el artículo i-0.', { id: params.id });
    if (params.id === 'i-9') throw refuse.conflict('El artículo i-9 está bloqueado.');
    return { id: params.id, hours: query.hours };
  },
  create: ({ body }) => new Reply(201, { id: `i-${body.name.length}` }),
};

function client() {
  return new RestClient(
    inProcessTransport(() => routes(api, handlers)),
    { systemName: 'sistema de prueba' },
  );
}

async function failure(work: Promise<unknown>): Promise<SystemError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (error instanceof SystemError) return error;
  throw new Error(`expected a SystemError, got ${String(error)}`);
}

describe('routes(api, handlers)', () => {
  it('serves each endpoint from its declaration: path params, query defaults, a status of its own', async () => {
    const rest = client();
    expect(await rest.send(api.item, { params: { id: 'i-7' } })).toEqual({ id: 'i-7', hours: 24 });
    expect(await rest.send(api.item, { params: { id: 'i-7' }, query: { hours: 3 } })).toEqual({
      id: 'i-7',
      hours: 3,
    });
    expect(await rest.send(api.create, { body: { name: 'abc' } })).toEqual({ id: 'i-3' });
  });

  it('refuses a query over its bound with 400 naming the parameter, the bound and the value, in Spanish', async () => {
    const error = await failure(client().send(api.item, { params: { id: 'i-7' }, query: { hours: 200 } }));
    expect(error.status).toBe(400);
    expect(error.message).toBe(
      "Parámetro 'hours' inválido: Demasiado grande: se esperaba que número fuera <=168. Recibido: 200.",
    );
    expect(error.details).toMatchObject({ parameter: 'hours', maximum: 168 });
  });

  it('refuses a bad path parameter and a bad body field with 400 too, with the schema own words', async () => {
    const param = await failure(client().send(api.item, { params: { id: 'x/y' } }));
    expect(param.status).toBe(400);
    expect(param.message).toBe(`Parámetro de ruta 'id' inválido: i- y dígitos. Recibido: "x/y".`);
    const field = await failure(client().send(api.create, { body: { name: '' } }));
    expect(field.status).toBe(400);
    expect(field.message).toContain("Campo 'name' inválido");
    expect(field.details).toMatchObject({ field: 'name', minimum: 1 });
    const extra = await failure(
      client().send(api.create, { body: { name: 'a', otro: 1 } as unknown as { name: string } }),
    );
    expect(extra.status).toBe(400);
    expect(extra.message).toContain("Campo 'otro' inválido");
  });

  it('refuses a body text over its bound with 413, and a body that is not JSON with 400', async () => {
    const tooBig = await failure(client().send(api.create, { body: { name: 'x'.repeat(9) } }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.message).toContain('<=8');
    const handler = routes(api, handlers);
    const raw = await handler({
      method: 'POST',
      path: '/v1/items',
      query: new URLSearchParams(),
      headers: {},
      body: '{no',
    });
    expect(raw.status).toBe(400);
    expect(JSON.parse(raw.body).detail).toBe('El cuerpo no es JSON válido.');
  });

  it("turns a use case's refusal into its status, keeping its words and details", async () => {
    const missing = await failure(client().send(api.item, { params: { id: 'i-0' } }));
    expect([missing.status, missing.message, missing.details?.id]).toEqual([
      404,
      'No existe el artículo i-0.',
      'i-0',
    ]);
    expect((await failure(client().send(api.item, { params: { id: 'i-9' } }))).status).toBe(409);
  });

  it('does not compile without a handler for every endpoint', () => {
    // @ts-expect-error: `create` has no handler.
    const partial: Handlers<typeof api> = { item: handlers.item };
    expect(Object.keys(partial)).toEqual(['item']);
  });
});
