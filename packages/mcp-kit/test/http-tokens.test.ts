import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StdioPeer, tempDataDir } from '@code-cluster/testkit';
import { trackPeers } from '@code-cluster/testkit/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTokensFile } from '../src/transport/http-tokens.js';
import { FIXTURE_BIN } from './global-setup.js';

const data = tempDataDir();
afterAll(() => data.remove());
const file = (name: string, content: unknown) => {
  const path = join(data.dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const A = 'token-a-0123456789abcdef';

describe('MCP_HTTP_TOKENS_FILE', () => {
  it('accepts entries with known scopes', () => {
    const path = file('ok.json', [{ token: A, scope: 'operador', label: 'turno' }]);
    expect(loadTokensFile(path, ['consulta', 'operador'])).toEqual({
      ok: true,
      tokens: [{ token: A, scope: 'operador', label: 'turno' }],
    });
  });

  it('refuses a repeated token, unreadable JSON, an empty list and a server without scopes, never quoting a token', () => {
    const repeated = file('rep.json', [
      { token: A, scope: 'consulta', label: 'uno' },
      { token: A, scope: 'operador', label: 'dos' },
    ]);
    const results = [
      loadTokensFile(repeated, ['consulta', 'operador']),
      loadTokensFile(file('bad.json', '[{"token":'), ['consulta']),
      loadTokensFile(file('empty.json', []), ['consulta']),
      loadTokensFile(repeated, []),
    ];
    const messages = results.map((r) => (r.ok ? 'ok' : r.message));
    expect(messages[0]).toBe(`invalid MCP_HTTP_TOKENS_FILE ${repeated} at 1.token: repeats an earlier token`);
    expect(messages[1]).toContain('cannot read MCP_HTTP_TOKENS_FILE');
    expect(messages[2]).toContain('invalid MCP_HTTP_TOKENS_FILE');
    expect(messages[3]).toBe(`${repeated}: this server has no scopes to give tokens`);
    for (const message of messages) expect(message).not.toContain(A);
  });

  const track = trackPeers();
  it('stops a server without scopes that is given one (exit 2)', async () => {
    const path = file('fixture.json', [{ token: A, scope: 'consulta', label: 'x' }]);
    const peer = StdioPeer.spawn(process.execPath, [
      FIXTURE_BIN,
      '--transport',
      'http',
      '--port',
      '0',
      '--http-tokens-file',
      path,
    ]);
    track(peer);
    expect((await peer.exited).code).toBe(2);
    expect(peer.stderr).toContain('this server has no scopes to give tokens');
  });
});
