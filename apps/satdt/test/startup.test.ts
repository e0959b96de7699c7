import { fileURLToPath } from 'node:url';
import { StdioPeer, serverBin } from '@code-cluster/testkit';
import { expect, it } from 'vitest';

const hook = fileURLToPath(new URL('./fixtures/report-builtins.cjs', import.meta.url));

// Start-up cost is measured by `pnpm bench`; this only guards what must never happen: a stdio server
// loading the HTTP stack (node:http, TLS, zlib, the SDK's HTTP transport) or undici's network client.
it('a stdio server answers initialize and a tool call without loading the HTTP stack', async () => {
  const peer = StdioPeer.spawn(process.execPath, ['-r', hook, serverBin('satdt')]);
  await peer.initialize();
  const call = await peer.request('tools/call', { name: 'satelite_info', arguments: { norad_id: 25544 } });
  expect(call.result).toBeDefined();
  await peer.close();
  const line = peer.stderr.split('\n').find((l) => l.startsWith('BUILTINS '));
  const loaded = new Set(line?.split(' ').slice(1));
  expect(loaded.size).toBeGreaterThan(10);
  for (const heavy of ['http', 'https', 'http2', 'tls', 'zlib', 'worker_threads']) {
    expect(loaded.has(heavy), `${heavy} was loaded`).toBe(false);
  }
});
