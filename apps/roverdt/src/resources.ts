import { readJsonResource } from '@code-cluster/mcp-kit';
import { ROVER_ID_PATTERN } from '@code-cluster/shared/roverdt';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RoverdtDeps } from './deps.js';

export const MAP_URI = 'rover://mapa';
export const ROVER_TEMPLATE = 'rover://rovers/{rover_id}';
/** Routes a rover resource shows, newest first. */
const RECENT_ROUTES = 5;

export function registerResources(server: McpServer, { roverdt }: RoverdtDeps): void {
  server.registerResource(
    'mapa',
    MAP_URI,
    {
      title: 'Mapa del terreno',
      description:
        'Resumen del mapa del gemelo: tamaño en celdas (1 m), semilla, elevaciones, rocas, cráteres, ' +
        'pendiente máxima que el rover admite y una vista general de 32 × 32 caracteres (fila norte primero; ' +
        'cada carácter resume 8 × 8 celdas). La arena blanda no aparece: se descubre conduciendo o con la cámara.',
      mimeType: 'application/json',
    },
    (uri, { signal }) => readJsonResource(uri, () => roverdt.map(signal)),
  );

  server.registerResource(
    'rover',
    new ResourceTemplate(ROVER_TEMPLATE, {
      list: async ({ signal }) => {
        const { rovers } = await roverdt.listRovers(signal);
        return {
          resources: rovers.map((r) => ({
            uri: `rover://rovers/${r.id}`,
            name: r.id,
            title: r.name,
            description: `En (${r.pose.x}, ${r.pose.y}), batería ${r.battery_pct} %, ${r.mode}`,
            mimeType: 'application/json',
          })),
        };
      },
      complete: {
        rover_id: async (value) => {
          const { rovers } = await roverdt.listRovers();
          return rovers.map((r) => r.id).filter((id) => id.startsWith(value.trim().toLowerCase()));
        },
      },
    }),
    {
      title: 'Estado de un rover',
      description: `Estado de un rover (posición, batería, modo, última parada) y sus ${RECENT_ROUTES} rutas más recientes.`,
      mimeType: 'application/json',
    },
    (uri, { rover_id }, { signal }) => {
      const id = String(rover_id);
      return readJsonResource(
        uri,
        async () => {
          const rover = await roverdt.getRover(id, signal);
          const { routes } = await roverdt.listRoutes(id, RECENT_ROUTES, signal);
          return { rover, recent_routes: routes };
        },
        { valid: ROVER_ID_PATTERN.test(id) && id.length <= 40 },
      );
    },
  );
}
