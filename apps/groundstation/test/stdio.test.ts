import { DISCOVERY_TOOLS, describeTool } from '@code-cluster/mcp-kit';
import { type StdioPeer, wireText } from '@code-cluster/testkit';
import { describeProtocolRules, trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { operatorTools, toolsFor } from '../src/tools/index.js';
import { spawnGroundstation, tempDataDir } from './helpers.js';

const inAnHour = (minutes: number) => new Date(Date.now() + (60 + minutes) * 60_000).toISOString();

// Every spawned server keeps its SQLite file in a temp dir, never in the user's data dir.
const suiteData = tempDataDir();
afterAll(() => suiteData.remove());

describeProtocolRules('groundstation-mcp (built bin)', {
  spawn: (args) => spawnGroundstation(suiteData.dir, args),
  happy: { tool: 'estado_estacion', arguments: { estacion: 'orbiteye-mx' } },
  schemaViolation: {
    tool: 'agenda_estacion',
    arguments: { estacion: 'orbiteye-mx', horas: 200 },
    mentions: ['horas', '168', '200'],
  },
  // Not orbiteye-cl's maintenance: its reference window has fixed ends, and this bin runs on today's clock
  // (tools.test.ts and remote.test.ts check that refusal on a pinned one).
  domainError: {
    tool: 'agendar_contacto',
    arguments: { estacion: 'orbiteye-mx', norad_id: 99999, inicio: inAnHour(0), fin: inAnHour(10) },
    mentions: /No hay ningún satélite con NORAD 99999/,
  },
  writeTools: ['agendar_contacto', 'cancelar_contacto'],
  sourceTools: [...DISCOVERY_TOOLS, ...toolsFor('consulta', true), ...operatorTools].map(describeTool),
});

const toolNames = async (peer: StdioPeer) =>
  ((await peer.request('tools/list')).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);

describe('groundstation-mcp over stdio: scope and persistence', () => {
  const track = trackPeers();
  const data = tempDataDir();
  const spawn = (args: string[] = [], env: Record<string, string> = {}) => {
    const peer = spawnGroundstation(data.dir, args, env);
    track(peer);
    return peer;
  };
  afterAll(() => data.remove());

  it('keeps a booked contact after the process is killed: a new process on the same data dir sees it', async () => {
    const first = spawn();
    await first.initialize();
    const booked = await first.request('tools/call', {
      name: 'agendar_contacto',
      arguments: {
        estacion: 'orbiteye-mx',
        norad_id: 39035 /* MEXSAT 3, geostationary over Mexico */,
        inicio: inAnHour(0),
        fin: inAnHour(8),
      },
    });
    const id = (booked.result as { structuredContent: { contacto_id: string } }).structuredContent
      .contacto_id;
    expect(id).toMatch(/^ct-[0-9a-f]{12}$/);
    await first.kill('SIGKILL');

    const second = spawn();
    await second.initialize();
    const agenda = await second.request('tools/call', {
      name: 'agenda_estacion',
      arguments: { estacion: 'orbiteye-mx', horas: 3 },
    });
    const ids = (
      agenda.result as { structuredContent: { contactos: Array<{ contacto_id: string }> } }
    ).structuredContent.contactos.map((c) => c.contacto_id);
    expect(ids).toContain(id);
    // And the rules hold against what it loaded: the same slot on the same antenna is taken.
    const clash = await second.request('tools/call', {
      name: 'agendar_contacto',
      arguments: {
        estacion: 'orbiteye-mx',
        norad_id: 40946,
        inicio: inAnHour(2),
        fin: inAnHour(4),
        antena: 'mx-s1',
      },
    });
    expect((clash.result as { isError: boolean }).isError).toBe(true);
    expect(wireText(clash)).toContain(id);
  });

  it('offers programar_mantenimiento with --scope operador, and it works on the embedded system', async () => {
    const peer = spawn(['--scope', 'operador']);
    await peer.initialize();
    expect(await toolNames(peer)).toContain('programar_mantenimiento');
    const response = await peer.request('tools/call', {
      name: 'programar_mantenimiento',
      arguments: {
        estacion: 'orbiteye-es',
        inicio: inAnHour(48 * 60),
        fin: inAnHour(50 * 60),
        motivo: 'Pintura del radomo',
      },
    });
    expect((response.result as { isError?: boolean }).isError).toBeFalsy();
    expect(wireText(response)).toMatch(/^Mantenimiento mt-[0-9a-f]{12} programado en orbiteye-es/);
    const id = (response.result as { structuredContent: { mantenimiento_id: string } }).structuredContent
      .mantenimiento_id;
    const listed = async () =>
      (
        (
          await peer.request('tools/call', {
            name: 'listar_mantenimientos',
            arguments: { estacion: 'orbiteye-es' },
          })
        ).result as { structuredContent: { mantenimientos: Array<{ mantenimiento_id: string }> } }
      ).structuredContent.mantenimientos.map((m) => m.mantenimiento_id);
    expect(await listed()).toEqual([id]);
    const cancelled = await peer.request('tools/call', {
      name: 'cancelar_mantenimiento',
      arguments: { mantenimiento_id: id },
    });
    expect(wireText(cancelled)).toMatch(new RegExp(`^Mantenimiento ${id} de orbiteye-es cancelado`));
    expect(await listed()).toEqual([]);
  });

  it('does not offer it by default, nor under --read-only even with GROUNDSTATION_SCOPE=operador', async () => {
    const plain = spawn();
    await plain.initialize();
    expect(await toolNames(plain)).not.toContain('programar_mantenimiento');
    const readOnly = spawn(['--read-only'], { GROUNDSTATION_SCOPE: 'operador' });
    await readOnly.initialize();
    expect((await toolNames(readOnly)).sort()).toEqual([
      'agenda_estacion',
      'estado_estacion',
      'listar_estaciones',
      'listar_mantenimientos',
    ]);
    const call = await readOnly.request('tools/call', {
      name: 'programar_mantenimiento',
      arguments: { estacion: 'orbiteye-es', inicio: inAnHour(0), fin: inAnHour(60), motivo: 'nada' },
    });
    expect(call.error?.code).toBe(-32602);
  });

  it('refuses an unknown scope at start-up, naming GROUNDSTATION_SCOPE', async () => {
    const peer = spawn([], { GROUNDSTATION_SCOPE: 'root' });
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stderr).toContain('GROUNDSTATION_SCOPE');
  });
});
