// A prompt argument naming something that does not exist is the client's mistake, said as -32602 with the
// domain's words, never -32603 "Internal error" (issue 9). Built bin, real stdio.
import { spawnServerWithData } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDataDir } from './helpers.js';

const data = tempDataDir();
afterAll(() => data.remove());
const track = trackPeers();

describe('lab-mcp prompts over stdio', () => {
  it('answers pista_laboratorio of an unknown lab with -32602 naming it', async () => {
    const peer = track(spawnServerWithData('lab', data.dir));
    await peer.initialize();
    const response = await peer.request('prompts/get', {
      name: 'pista_laboratorio',
      arguments: { laboratorio: 'no-existe' },
    });
    expect(response.error?.code).toBe(-32602);
    expect(response.error?.message).toContain('pista_laboratorio');
    expect(response.error?.message).toContain('no-existe');
    const known = await peer.request('prompts/get', {
      name: 'pista_laboratorio',
      arguments: { laboratorio: 'mcp-handshake' },
    });
    expect(known.error).toBeUndefined();
  });
});
