import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { RoverdtToolContext } from '../deps.js';
import { roverIdArg } from '../format.js';

const celda = z.object({ x: z.int(), y: z.int() });

/**
 * View-only (MCP Apps `visibility: ['app']`): the terrain map of `planificar_ruta` and `estado_rover`
 * draws the whole heightmap, the rocks and the soft sand the rover knows, which neither tool returns.
 * Hidden from the model and absent for clients without MCP Apps.
 */
export const terrenoRover = defineTool({
  name: 'terreno_rover',
  title: 'Terreno del rover (vista)',
  toolset: 'rutas',
  description:
    'Mapa de alturas completo, rocas, arena blanda conocida, posición y ruta más reciente de un rover, para ' +
    'dibujar el mapa del terreno de la vista.',
  input: z.strictObject({ rover_id: roverIdArg }),
  output: z.object({
    rover_id: z.string(),
    ancho: z.int(),
    alto: z.int(),
    elevacion_min_m: z.number(),
    elevacion_max_m: z.number(),
    elevacion_u8: z.string().describe('Base64, un byte por celda, fila y = 0 primero: 0 mínimo, 255 máximo'),
    rocas: z.array(z.int()).describe('Celdas con roca, como índices y · ancho + x'),
    arena_blanda: z.array(celda),
    posicion: z.object({ x: z.int(), y: z.int(), rumbo_deg: z.number() }),
    ruta_reciente: z
      .object({ ruta_id: z.string(), estado: z.string(), celdas: z.array(celda) })
      .nullable()
      .describe('Origen y final de cada tramo de la ruta más reciente'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ['app'] },
  async handler({ rover_id }, { deps, signal }: RoverdtToolContext) {
    const [grid, rover, hazards, routes] = await Promise.all([
      deps.roverdt.terrain(signal),
      deps.roverdt.getRover(rover_id, signal),
      deps.roverdt.knownHazards(rover_id, signal),
      deps.roverdt.listRoutes(rover_id, 1, signal),
    ]);
    const route = routes.routes[0];
    const data = {
      rover_id: rover.id,
      ancho: grid.width,
      alto: grid.height,
      elevacion_min_m: grid.elevation_min_m,
      elevacion_max_m: grid.elevation_max_m,
      elevacion_u8: grid.elevation_u8,
      rocas: grid.obstacles,
      arena_blanda: hazards.cells,
      posicion: { x: rover.pose.x, y: rover.pose.y, rumbo_deg: rover.pose.heading_deg },
      ruta_reciente: route
        ? { ruta_id: route.id, estado: route.status, celdas: [route.origin, ...route.legs.map((l) => l.to)] }
        : null,
    };
    return {
      text: `Terreno de ${grid.width} × ${grid.height} celdas con ${grid.obstacles.length} rocas y ${hazards.cells.length} celdas de arena blanda conocidas.`,
      data,
    };
  },
});
