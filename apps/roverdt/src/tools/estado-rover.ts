import { defineTool } from '@code-cluster/mcp-kit';
import { terrainMapView } from '@code-cluster/views';
import { z } from 'zod';
import type { RoverdtToolContext } from '../deps.js';
import { describeRover, rover, roverIdArg, roverSchema } from '../format.js';

export const estadoRover = defineTool({
  name: 'estado_rover',
  title: 'Estado del rover',
  toolset: 'estado',
  description:
    'Estado actual de un rover: posición y rumbo en el mapa, batería (Wh y %, con la reserva que nunca ' +
    'gasta), modo, reloj simulado, odómetro, ruta a medias, última parada de seguridad y peligros ya ' +
    'conocidos. Úsala antes de planificar una ruta y después de ejecutarla o cancelarla, para saber dónde ' +
    'quedó el rover.',
  input: z.strictObject({ rover_id: roverIdArg }),
  output: roverSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { view: terrainMapView },
  async handler({ rover_id }, { deps, signal }: RoverdtToolContext) {
    const data = rover(await deps.roverdt.getRover(rover_id, signal));
    const lines = [
      describeRover(data),
      `Instrumentos: ${data.instrumentos.join(', ')}.`,
      data.ultima_parada ? `Última parada (${data.ultima_parada.motivo}): ${data.ultima_parada.detalle}` : '',
      data.peligros_conocidos > 0
        ? `Conoce ${data.peligros_conocidos} celdas de arena blanda; las rutas nuevas las evitan.`
        : '',
    ];
    return { text: lines.filter(Boolean).join('\n'), data };
  },
});
