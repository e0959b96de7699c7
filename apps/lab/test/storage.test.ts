import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type StdioPeer, spawnServerWithData } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir, textOf } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());

async function call(peer: StdioPeer, name: string, args: Record<string, unknown>) {
  const reply = await peer.request('tools/call', { name, arguments: args });
  return reply.result as { isError?: boolean; structuredContent?: Record<string, unknown> };
}

describe('lab-mcp over real stdio: storage that cannot be written', () => {
  const track = trackPeers();

  it('refuses to start on a data dir it cannot write, with one ERROR line naming the dir and the fix', async () => {
    // A data dir under a plain file can never be created, whoever runs the server (root included).
    writeFileSync(join(data.dir, 'plain-file'), 'x');
    const dir = join(data.dir, 'plain-file', 'data');
    const peer = track(spawnServerWithData('lab', dir));
    const exit = await peer.exited;
    expect(exit.code).toBe(2);
    expect(peer.stdoutLines).toEqual([]);
    const lines = peer.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `ERROR lab-mcp: the data dir ${dir} is not writable \\(ENOTDIR\\): give this user write access to it, ` +
          'or set CODE_CLUSTER_DATA_DIR to a writable directory',
      ),
    );
  });

  it('says a full disk is full, to the model and at ERROR, and keeps serving reads', async () => {
    const dir = join(data.dir, 'small');
    mkdirSync(dir);
    // A page cap makes SQLite hit SQLITE_FULL for real: migrations fit, a 60 KB submission does not.
    const peer = track(spawnServerWithData('lab', dir, [], { CODE_CLUSTER_SQLITE_MAX_PAGES: '14' }));
    await peer.initialize();
    const started = await call(peer, 'iniciar_laboratorio', {
      laboratorio: 'mcp-handshake',
      estudiante: 'ana-garcia',
    });
    expect(started.isError).toBeFalsy();
    const sesion_id = started.structuredContent!.sesion_id as string;
    const full = await call(peer, 'enviar_entrega', { sesion_id, contenido: `# ${'x'.repeat(60_000)}` });
    expect(full.isError).toBe(true);
    expect(textOf(full as never)).toMatch(/El disco del servidor está lleno: no se pudo guardar/);
    expect(textOf(full as never)).not.toMatch(/unos minutos|rollback|Error interno/);
    expect(peer.stderr).toMatch(
      /ERROR lab-mcp: lab system error.*SQLITE_FULL|ERROR lab-mcp: lab system error.*full/,
    );
    const list = await call(peer, 'listar_laboratorios', {});
    expect(list.isError).toBeFalsy();
    expect((await peer.close()).code).toBe(0);
  });
});
