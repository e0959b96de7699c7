import { defineTool } from '@code-cluster/mcp-kit';
import { BATTERY_RESERVE_PCT, MAX_SLOPE_DEG } from '@code-cluster/shared/roverdt';
import { terrainMapView } from '@code-cluster/views';
import { z } from 'zod';
import type { RoverdtToolContext } from '../deps.js';
import { celdaSchema, roverIdArg, ruta, rutaSchema, xy } from '../format.js';

export const planificarRuta = defineTool({
  name: 'planificar_ruta',
  title: 'Planificar una ruta',
  toolset: 'rutas',
  description:
    'Planifica y guarda una ruta del rover desde donde está hasta una celda destino del mapa (A* sobre el ' +
    `terreno, evitando rocas, pendientes de más de ${MAX_SLOPE_DEG}° y la arena blanda ya encontrada), con ` +
    'su distancia, tramos y energía estimada. Úsala antes de ejecutar_ruta, que necesita el ruta_id que ' +
    'devuelve. No mueve el rover. Falla explicando por qué si el destino es una roca, queda encerrado por ' +
    `pendientes o rocas, o si la energía necesaria supera la batería por encima de la reserva del ${BATTERY_RESERVE_PCT} % ` +
    '(entonces dice cuántas horas esperar con esperar para que los paneles la recarguen).',
  input: z.strictObject({
    rover_id: roverIdArg,
    destino: celdaSchema.describe('Celda destino; una celda mide 1 m × 1 m (rover://mapa da el tamaño)'),
  }),
  output: rutaSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  ui: { view: terrainMapView },
  async handler({ rover_id, destino }, { deps, signal }: RoverdtToolContext) {
    const data = ruta(await deps.roverdt.planRoute(rover_id, destino, signal));
    const text =
      `Ruta ${data.ruta_id} planificada de ${xy(data.origen)} a ${xy(data.destino)}: ${data.distancia_m} m en ` +
      `${data.tramos.length} ${data.tramos.length === 1 ? 'tramo' : 'tramos'}, subida ${data.subida_m} m, ` +
      `pendiente máxima ${data.pendiente_max_deg}°, energía ${data.energia_wh} Wh (batería al llegar ≈ ` +
      `${data.bateria_final_pct} %). Para conducirla: ejecutar_ruta con ruta_id ${data.ruta_id}.`;
    return { text, data };
  },
});
