import { readJsonResource } from '@code-cluster/mcp-kit';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SatdtDeps } from './deps.js';

const CATALOG_URI = 'satdt://catalogo';
const MAX_COMPLETIONS = 100;

export function registerResources(server: McpServer, { satdt }: SatdtDeps): void {
  server.registerResource(
    'catalogo',
    CATALOG_URI,
    {
      title: 'Catálogo de satélites',
      description: 'Todos los satélites del gemelo: NORAD, nombre, COSPAR, régimen orbital y estado.',
      mimeType: 'application/json',
    },
    (uri, { signal }) => readJsonResource(uri, () => satdt.listSatellites(undefined, signal)),
  );

  server.registerResource(
    'satelite',
    new ResourceTemplate('satdt://satelites/{norad_id}', {
      list: async ({ signal }) => {
        const { satellites } = await satdt.listSatellites(undefined, signal);
        return {
          resources: satellites.map((s) => ({
            uri: `satdt://satelites/${s.norad_id}`,
            name: `${s.norad_id}`,
            title: s.name,
            description: `${s.name}: ${s.regime}, ${s.status}`,
            mimeType: 'application/json',
          })),
        };
      },
      complete: {
        norad_id: async (value) => {
          const { satellites } = await satdt.listSatellites();
          const needle = value.trim().toLowerCase();
          return satellites
            .filter((s) => `${s.norad_id}`.startsWith(needle) || s.name.toLowerCase().includes(needle))
            .slice(0, MAX_COMPLETIONS)
            .map((s) => `${s.norad_id}`);
        },
      },
    }),
    {
      title: 'Ficha de un satélite',
      description: 'Entrada de catálogo de un satélite con sus elementos orbitales y su TLE.',
      mimeType: 'application/json',
    },
    (uri, { norad_id }, { signal }) =>
      readJsonResource(uri, () => satdt.getSatellite(Number(norad_id), signal), {
        valid: /^\d{1,6}$/.test(String(norad_id)),
      }),
  );
}
