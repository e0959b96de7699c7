import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServerApp, spawnServerWithData } from '@code-cluster/testkit';
import { afterAll, expect, it } from 'vitest';

// Every server whose embedded system keeps state says, at start, that its data dir cannot be written —
// one ERROR line on stderr naming the dir and the fix, exit code 2, nothing on stdout — instead of
// starting and then failing every call. satdt keeps no state and is not among them.
const STATEFUL: ServerApp[] = ['groundstation', 'hub', 'roverdt', 'lab', 'academy'];

const root = mkdtempSync(join(tmpdir(), 'console-data-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// A data dir under a plain file can never be created, whoever runs the server (root included).
writeFileSync(join(root, 'plain-file'), 'x');
const unwritable = join(root, 'plain-file', 'data');

it.each(STATEFUL)('%s-mcp refuses to start on a data dir it cannot write', async (app) => {
  const peer = spawnServerWithData(app, unwritable);
  const exit = await peer.exited;
  expect(exit.code).toBe(2);
  expect(peer.stdoutLines).toEqual([]);
  const lines = peer.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`ERROR ${app}-mcp: the data dir ${unwritable} is not writable (ENOTDIR)`);
  expect(lines[0]).toContain('CODE_CLUSTER_DATA_DIR');
});

it('a remote system needs no data dir: the check is skipped when an API URL is set', async () => {
  const peer = spawnServerWithData('hub', unwritable, [], { HUB_API_URL: 'http://127.0.0.1:9' });
  await peer.initialize();
  expect((await peer.close()).code).toBe(0);
});
