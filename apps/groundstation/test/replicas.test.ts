// Two HTTP replicas of groundstation-mcp (the built bin) on one PostgreSQL database, each with a data dir of
// its own (all they share is the database), driven by the official SDK client over Streamable HTTP as a
// team behind a load balancer would be: a booking made on A is in B's agenda, and 20 bookings of one window
// racing over both replicas give exactly one contact, every loser told which one holds the antenna.
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { Replicas } from '@code-cluster/testkit/replicas';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GEO, textOf } from './helpers.js';

let db: TestDatabase | undefined;
let replicas: Replicas;
let a: Client;
let b: Client;

beforeAll(async () => {
  db = await freshDatabase('groundstation-mcp HTTP replicas (apps/groundstation/test/replicas.test.ts)');
  if (!db) return;
  replicas = await Replicas.start('groundstation', { GROUNDSTATION_DATABASE_URL: db.url });
  [a, b] = await Promise.all([replicas.connect(0), replicas.connect(1)]);
});
afterAll(async () => {
  await replicas?.close();
  await db?.drop();
});

/** A window `hours` from now, whole minutes, on a geostationary satellite always above orbiteye-mx. */
function window(hours: number, minutes = 10) {
  const start = Math.ceil((Date.now() + hours * 3_600_000) / 60_000) * 60_000;
  return { inicio: new Date(start).toISOString(), fin: new Date(start + minutes * 60_000).toISOString() };
}

const book = (client: Client, args: Record<string, unknown>) =>
  client.callTool({
    name: 'agendar_contacto',
    arguments: { estacion: 'orbiteye-mx', norad_id: GEO.MEXSAT_3, ...args },
  }) as Promise<CallToolResult>;

describe('groundstation-mcp: two HTTP replicas on one PostgreSQL', () => {
  it("shows a booking made on replica A in replica B's agenda", async (ctx) => {
    if (!db) return ctx.skip();
    const booked = await book(a, { ...window(2), antena: 'mx-s1' });
    expect(booked.isError).toBeFalsy();
    const { contacto_id } = booked.structuredContent as { contacto_id: string };
    const agenda = (await b.callTool({
      name: 'agenda_estacion',
      arguments: { estacion: 'orbiteye-mx', horas: 6 },
    })) as CallToolResult;
    const contactos = (agenda.structuredContent as { contactos: Array<{ contacto_id: string }> }).contactos;
    expect(contactos.map((c) => c.contacto_id)).toContain(contacto_id);
  });

  it('gives one window raced by 20 bookings over both replicas to exactly one, and names it to the rest', async (ctx) => {
    if (!db) return ctx.skip();
    const slot = { ...window(5), antena: 'mx-x1' };
    // Ten agents, five on each replica, two bookings each at once: well under --max-inflight (8 per
    // session), counting the tools/list the SDK client sends to check a result against its outputSchema.
    const agents = await Promise.all(
      Array.from({ length: 10 }, (_, i) => replicas.connect(i % 2, `agente-${i}`)),
    );
    await Promise.all(agents.map((agent) => agent.listTools()));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => book(agents[i % agents.length]!, slot)),
    );
    const won = results.filter((r) => !r.isError);
    expect(won).toHaveLength(1);
    const winner = (won[0]!.structuredContent as { contacto_id: string }).contacto_id;
    for (const lost of results.filter((r) => r.isError)) expect(textOf(lost)).toContain(winner);
  });
});
