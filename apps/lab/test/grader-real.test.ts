import { join } from 'node:path';
import { GradingSandbox, gradeAll, handshakeLab } from '@code-cluster/systems/lab';
import { type StdioPeer, spawnServer } from '@code-cluster/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
const sandbox = new GradingSandbox();
afterAll(() => {
  sandbox.close();
  data.remove();
});
const peers: StdioPeer[] = [];
afterEach(async () => {
  for (const peer of peers.splice(0)) if (peer.child.exitCode === null) await peer.kill('SIGKILL');
});

/** Drives the built satdt-mcp through the session the lab statement asks for, recording every line. */
async function captureSatdtSession(version: string): Promise<string> {
  const peer = spawnServer('satdt', [], {
    env: { ...process.env, CODE_CLUSTER_DATA_DIR: join(data.dir, version) },
  });
  peers.push(peer);
  const transcript: string[] = [];
  peer.onEvent((event) => transcript.push(`${event.direction === 'out' ? '→' : '←'} ${event.raw}`));
  const settle = () => peer.quietFor(150);

  await peer.request('tools/list');
  await peer.request('ping');
  await peer.initialize(version);
  await peer.request('tools/list');
  await peer.request('tools/call', { name: 'satelite_info', arguments: { norad_id: 25544 } });
  await peer.request('tools/call', {
    name: 'proximos_pases',
    arguments: { norad_id: 25544, estacion: 'orbiteye-mx', horas: 200 },
  });
  await peer.request('tools/call', { name: 'satelite_info', arguments: { norad_id: 99999 } });
  await peer.request('tools/call', { name: 'no_existe', arguments: {} });
  peer.send('{"jsonrpc":"2.0","id":77,"method":');
  await peer.waitFor((m) => m.error?.code === -32700);
  peer.send('{"jsonrpc":"1.0","id":78,"method":"ping"}');
  await peer.waitFor((m) => m.id === 78);
  peer.notify('notifications/no_existe');
  await settle();
  await peer.request('ping');
  return transcript.join('\n');
}

describe('the grader and the servers agree', () => {
  it.each(['2025-06-18', '2025-11-25'])(
    'a real transcript of the built satdt-mcp under %s passes every rule',
    async (version) => {
      const transcript = await captureSatdtSession(version);
      const rules = await gradeAll(handshakeLab, transcript, sandbox.budget(10_000));
      const failed = rules.filter((r) => r.outcome === 'fallida');
      expect(failed).toEqual([]);
      expect(rules.map((r) => r.outcome)).toEqual(Array(6).fill('superada'));
      // The capture really exercised the error layers it claims to.
      expect(transcript).toContain('"code":-32700');
      expect(transcript).toMatch(version === '2025-06-18' ? /"code":-32602[^\n]*horas/ : /"isError":true/);
    },
  );
});
