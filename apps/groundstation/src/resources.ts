import { readJsonResource } from '@code-cluster/mcp-kit';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { GroundstationDeps } from './deps.js';

const STATIONS_URI = 'estacion://estaciones';
const STATION_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function registerResources(server: McpServer, { groundstation }: GroundstationDeps): void {
  server.registerResource(
    'estaciones',
    STATIONS_URI,
    {
      title: 'Estaciones terrenas',
      description: 'Todas las estaciones: ubicación, máscara, antenas, estado y mantenimiento en vigor.',
      mimeType: 'application/json',
    },
    (uri, { signal }) => readJsonResource(uri, () => groundstation.listStations(signal)),
  );

  server.registerResource(
    'agenda',
    new ResourceTemplate('estacion://estaciones/{estacion}/agenda', {
      list: async ({ signal }) => {
        const { stations } = await groundstation.listStations(signal);
        return {
          resources: stations.map((s) => ({
            uri: `estacion://estaciones/${s.id}/agenda`,
            name: `${s.id}/agenda`,
            title: `Agenda de ${s.name}`,
            description: `Contactos y mantenimiento de ${s.id} en las próximas 24 h (${s.status})`,
            mimeType: 'application/json',
          })),
        };
      },
      complete: {
        estacion: async (value) => {
          const { stations } = await groundstation.listStations();
          return stations.map((s) => s.id).filter((id) => id.startsWith(value.trim().toLowerCase()));
        },
      },
    }),
    {
      title: 'Agenda de una estación',
      description: 'Contactos agendados y ventanas de mantenimiento de una estación en las próximas 24 h.',
      mimeType: 'application/json',
    },
    (uri, { estacion }, { signal }) =>
      readJsonResource(uri, () => groundstation.schedule(String(estacion), { hours: 24 }, signal), {
        valid: STATION_ID.test(String(estacion)),
      }),
  );
}
