import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, connectAppsClient, ViewHost } from '../src/harness.js';

// The views' tests assert "nothing fetched, no console errors": this proves the host would see both.
const LEAKY_VIEW = `<!doctype html><html><body><img src="https://example.com/mapa.png"><script>
fetch('https://cdn.example/lib.js').catch(() => {});
console.error('fallo de la vista');
addEventListener('message', (e) => {
  if (e.data.id !== 1) return;
  parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');
  document.body.append(Object.assign(document.createElement('p'), { id: 'lista', textContent: 'lista' }));
});
parent.postMessage({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {
  protocolVersion: '2026-01-26', appInfo: { name: 'fuga', version: '0' }, appCapabilities: {} } }, '*');
</script></body></html>`;

describe.skipIf(!chromiumAvailable())('the view host itself', () => {
  let host: ViewHost;
  let client: Client;
  beforeAll(async () => {
    [host, client] = await Promise.all([ViewHost.launch(), connectAppsClient('satdt')]);
  });
  afterAll(async () => {
    await host?.close();
    await client?.close();
  });

  it("sees a view's requests to the network and its console errors", async () => {
    const session = await host.show(client, LEAKY_VIEW, { content: [] }, { ready: '#lista' });
    await expect.poll(() => session.network.length).toBe(2);
    expect(session.network.sort()).toEqual(['https://cdn.example/lib.js', 'https://example.com/mapa.png']);
    expect(session.consoleErrors).toContain('fallo de la vista');
    await session.close();
  });
});
