// publicar_evento.datos is bounded in its inputSchema (depth, keys, elements, text length), and held to
// those bounds when called: over real stdio to the built bin, both error layers.
import { type StdioPeer, spawnServer, type WireMessage } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { DATOS_MAX_DEPTH, DATOS_MAX_KEYS } from '../src/tools/datos.js';
import { tempDataDir, textOf } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();
const spawnHub = (): StdioPeer =>
  track(spawnServer('hub', [], { env: { ...process.env, CODE_CLUSTER_DATA_DIR: data.dir } }));

/** `{"a": {"a": … 1}}` with `levels` objects, datos itself being the first. */
const nested = (levels: number): Record<string, unknown> => {
  let value: unknown = 1;
  for (let i = 1; i < levels; i++) value = { a: value };
  return { a: value };
};
const publish = (peer: StdioPeer, datos: unknown) =>
  peer.request('tools/call', { name: 'publicar_evento', arguments: { topico: 'limites', tipo: 'x', datos } });
const isError = (m: WireMessage) => (m.result as { isError?: boolean } | undefined)?.isError === true;

describe('publicar_evento.datos bounds', () => {
  it('declares them in the inputSchema', async () => {
    const peer = spawnHub();
    await peer.initialize();
    const { tools } = (await peer.request('tools/list')).result as {
      tools: Array<{ name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }>;
    };
    const datos = tools.find((t) => t.name === 'publicar_evento')!.inputSchema.properties.datos!;
    expect(datos).toMatchObject({ type: 'object', maxProperties: DATOS_MAX_KEYS });
    expect(JSON.stringify(datos)).not.toContain('"additionalProperties":{}');
  });

  it(`accepts ${DATOS_MAX_DEPTH} levels and refuses one more, naming the bound`, async () => {
    const peer = spawnHub();
    await peer.initialize('2025-11-25');
    expect(isError(await publish(peer, nested(DATOS_MAX_DEPTH)))).toBe(false);
    const deeper = await publish(peer, nested(DATOS_MAX_DEPTH + 1));
    expect(isError(deeper)).toBe(true);
    expect(textOf(deeper.result as never), textOf(deeper.result as never)).toContain(
      `${DATOS_MAX_DEPTH} niveles`,
    );
  });

  it(`refuses more than ${DATOS_MAX_KEYS} keys in an object`, async () => {
    const peer = spawnHub();
    await peer.initialize('2025-06-18');
    const wide = Object.fromEntries(Array.from({ length: DATOS_MAX_KEYS + 1 }, (_, i) => [`k${i}`, i]));
    const response = await publish(peer, wide);
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toContain(`${DATOS_MAX_KEYS} claves`);
  });

  it('answers 4500 levels with -32602 naming the bound, never a stack overflow', async () => {
    const peer = spawnHub();
    await peer.initialize('2025-11-25');
    // Written by hand: JSON.stringify itself would overflow the test's stack on this value.
    const datos = `${'{"a":'.repeat(4500)}1${'}'.repeat(4500)}`;
    peer.send(
      `{"jsonrpc":"2.0","id":"hondo","method":"tools/call","params":{"name":"publicar_evento","arguments":{"topico":"limites","tipo":"x","datos":${datos}}}}`,
    );
    const response = await peer.waitFor((m) => m.id === 'hondo');
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toContain('64 levels');
    expect((await peer.request('ping')).result).toEqual({});
  });
});
