import { DISCOVERY_TOOLS, describeTool } from '@code-cluster/mcp-kit';
import { spawnServer } from '@code-cluster/testkit';
import { describeProtocolRules, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../src/tools/index.js';
import { BAD_TRANSCRIPT, tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const spawn = (args: string[] = []) =>
  spawnServer('lab', args, { env: { ...process.env, CODE_CLUSTER_DATA_DIR: data.dir } });

describeProtocolRules('lab-mcp (built bin)', {
  spawn,
  happy: { tool: 'listar_laboratorios', arguments: {} },
  schemaViolation: {
    tool: 'resultado_entrega',
    arguments: { entrega_id: 'ent-000000000000', espera_max_s: 60 },
    mentions: ['espera_max_s', '25', '60'],
  },
  domainError: {
    tool: 'iniciar_laboratorio',
    arguments: { laboratorio: 'no-existe', estudiante: 'ana-garcia' },
    mentions: /No existe el laboratorio/,
  },
  writeTools: ['iniciar_laboratorio', 'enviar_entrega'],
  sourceTools: [...DISCOVERY_TOOLS, ...tools].map(describeTool),
});

describe('lab-mcp over real stdio: a whole lab attempt', () => {
  const track = trackPeers();

  it('answers pista_laboratorio for an unknown lab with -32602 naming the labs there are', async () => {
    const peer = track(spawn());
    await peer.initialize();
    const unknown = await peer.request('prompts/get', {
      name: 'pista_laboratorio',
      arguments: { laboratorio: 'no-existe' },
    });
    expect(unknown.error?.code).toBe(-32602);
    expect(unknown.error?.message).toContain(
      'No existe el laboratorio "no-existe". Laboratorios disponibles: mcp-handshake, mcp-esquemas',
    );
    const malformed = await peer.request('prompts/get', {
      name: 'pista_laboratorio',
      arguments: { laboratorio: 'No Existe' },
    });
    expect(malformed.error?.code).toBe(-32602);
    const known = await peer.request('prompts/get', {
      name: 'pista_laboratorio',
      arguments: { laboratorio: 'mcp-esquemas' },
    });
    expect(known.result).toMatchObject({ description: 'Pistas para el laboratorio mcp-esquemas' });
  });

  it('grades a submission and reports progress per rule to a client that sent a progressToken', async () => {
    const peer = spawn();
    track(peer);
    await peer.initialize();
    const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
      (
        (await peer.request('tools/call', { name, arguments: args, ...(meta ? { _meta: meta } : {}) }))
          .result as {
          structuredContent: Record<string, unknown>;
        }
      ).structuredContent;
    const { sesion_id } = await call('iniciar_laboratorio', {
      laboratorio: 'mcp-handshake',
      estudiante: 'ana-garcia',
    });
    const { entrega_id } = await call('enviar_entrega', { sesion_id, contenido: BAD_TRANSCRIPT });
    const graded = await call('resultado_entrega', { entrega_id }, { progressToken: 'tok-1' });
    expect(graded).toMatchObject({ estado: 'evaluada', aprobada: false, reglas_total: 6 });
    const progress = peer.received
      .filter((m) => m.method === 'notifications/progress')
      .map((m) => m.params as { progressToken: string; progress: number; total: number; message: string });
    expect(progress.map((p) => [p.progressToken, p.progress, p.total])).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => ['tok-1', n, 6]),
    );
    expect(progress.map((p) => p.message)).toContain('notificaciones_sin_respuesta: FALLIDA');
    // Without a progressToken, no progress notifications.
    const before = peer.received.length;
    await call('resultado_entrega', { entrega_id });
    expect(peer.received.slice(before).some((m) => m.method === 'notifications/progress')).toBe(false);
  });
});
