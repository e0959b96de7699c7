import { join } from 'node:path';
import { type RunningService, serveHttp } from '@code-cluster/systems';
import { type AcademySystem, createAcademySystem } from '@code-cluster/systems/academy';
import { type StdioPeer, wireData, wireIsError, wireText } from '@code-cluster/testkit';
import { describeUnreachableSystem, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnAcademy, tempDataDir } from './helpers.js';

const TOKEN = 'academy-test-token';
const data = tempDataDir();
let system: AcademySystem;
let service: RunningService;
const track = trackPeers();

function spawnRemote(url: string, extraEnv: Record<string, string> = {}, args: string[] = []): StdioPeer {
  const peer = spawnAcademy(data.dir, args, { ACADEMY_API_URL: url, ACADEMY_API_TOKEN: TOKEN, ...extraEnv });
  track(peer);
  return peer;
}

beforeAll(async () => {
  system = createAcademySystem({ file: join(data.dir, 'remote-system.db') });
  service = await serveHttp(system.handler, { token: TOKEN });
});
afterAll(async () => {
  await service.close();
  system.close();
  data.remove();
});

describe('academy-mcp against the academy system over real loopback HTTP', () => {
  it('serves every tool from the remote system; writes land in its store', async () => {
    const peer = spawnRemote(service.url);
    await peer.initialize();
    const search = await peer.request('tools/call', { name: 'buscar_cursos', arguments: {} });
    expect(wireText(search)).toMatch(/^4 cursos:/);
    const progress = await peer.request('tools/call', {
      name: 'progreso_estudiante',
      arguments: { estudiante: 'ana-garcia' },
    });
    expect(wireIsError(progress)).toBe(false);
    const recorded = await peer.request('tools/call', {
      name: 'registrar_avance',
      arguments: { estudiante: 'ana-garcia', leccion: 'mcp-03-herramientas' },
    });
    expect(wireIsError(recorded)).toBe(false);
    expect(await system.store.isCompleted('ana-garcia', 'mcp-03-herramientas')).toBeDefined();
    const quiz = await peer.request('tools/call', {
      name: 'responder_quiz',
      arguments: { estudiante: 'ana-garcia', quiz: 'quiz-mcp-01', respuestas: { p1: 'b', p2: 'c' } },
    });
    expect(wireData(quiz)).toMatchObject({ aciertos: 2, aprobado: true });
    const sql = await peer.request('tools/call', {
      name: 'consulta_sql',
      arguments: {
        sql: 'SELECT count(*) FROM intentos WHERE estudiante_id = ? AND quiz_id = ?',
        parametros: ['ana-garcia', 'quiz-mcp-01'],
      },
    });
    expect(wireData(sql)).toMatchObject({ filas: [[1]] });
    const refused = await peer.request('tools/call', {
      name: 'consulta_sql',
      arguments: { sql: 'DROP TABLE avances' },
    });
    expect(wireIsError(refused)).toBe(true);
    expect(wireText(refused)).toContain('DROP');
  });

  it('reports a refused system credential as a domain error, never a crash', async () => {
    const peer = spawnRemote(service.url, { ACADEMY_API_TOKEN: 'wrong' });
    await peer.initialize();
    const response = await peer.request('tools/call', { name: 'buscar_cursos', arguments: {} });
    expect(wireIsError(response)).toBe(true);
    expect(wireText(response)).toContain('token');
  });
});

describeUnreachableSystem('academy-mcp', {
  envPrefix: 'ACADEMY',
  spawn: (url, args) => spawnRemote(url, {}, args),
  call: { tool: 'progreso_estudiante', arguments: { estudiante: 'ana-garcia' } },
});
