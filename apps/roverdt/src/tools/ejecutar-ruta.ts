import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@code-cluster/mcp-kit';
import type { LegResult, Route, StepResult } from '@code-cluster/shared/roverdt';
import { z } from 'zod';
import type { RoverdtToolContext } from '../deps.js';
import {
  describeRover,
  parada,
  paradaSchema,
  rover,
  roverIdArg,
  roverSchema,
  rutaIdArg,
  xy,
} from '../format.js';

/** A route that would leave the battery under this asks the person first (when the client can be asked). */
export const BATERIA_CONFIRMAR_PCT = 30;

/** Long enough for the longest route on the map (~60 legs) with the slowest pacing allowed. */
export const EJECUTAR_RUTA_TIMEOUT_MS = 120_000;

export const ejecutarRuta = defineTool({
  name: 'ejecutar_ruta',
  title: 'Ejecutar una ruta',
  toolset: 'rutas',
  description:
    'Conduce el rover por una ruta planificada, tramo a tramo: cada tramo gasta batería y avanza el reloj ' +
    'simulado. Úsala con el ruta_id de planificar_ruta cuando quieras mover el rover de verdad; una ruta a ' +
    'medias (cancelada) se reanuda llamándola otra vez. Informa del progreso por tramo si el cliente lo ' +
    'pide, y se puede cancelar: el rover se queda donde esté entre dos tramos. Se detiene sola, diciendo ' +
    'por qué, si ve arena blanda delante o si un tramo dejaría la batería bajo la reserva. No se puede ' +
    'deshacer: la batería gastada solo se recupera aparcado al sol (esperar). Si el cliente admite ' +
    `elicitation, pide confirmación a la persona cuando la ruta dejaría la batería bajo el ${BATERIA_CONFIRMAR_PCT} % ` +
    'o cruza arena blanda ya conocida (hallada después de planificarla).',
  input: z.strictObject({ rover_id: roverIdArg, ruta_id: rutaIdArg }),
  output: z.object({
    ruta_id: z.string(),
    estado: z.enum(['planificada', 'en_curso', 'completada', 'detenida', 'abandonada']),
    tramos_totales: z.int(),
    tramos_hechos: z.int().describe('Tramos completados de la ruta, contando llamadas anteriores'),
    tramos_en_esta_llamada: z.int(),
    distancia_recorrida_m: z.number().describe('En esta llamada'),
    energia_gastada_wh: z.number().describe('En esta llamada'),
    parada: paradaSchema.nullable().describe('Por qué se detuvo, si se detuvo por seguridad'),
    rover: roverSchema,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  timeoutMs: EJECUTAR_RUTA_TIMEOUT_MS,
  async handler({ rover_id, ruta_id }, context: RoverdtToolContext) {
    const { deps, signal, progress } = context;
    const route = await deps.roverdt.getRoute(rover_id, ruta_id, signal);
    const total = route.legs.length;
    const startedAt = route.legs_done;
    const refused = await askIfRisky(route, context);
    if (refused) return refused;
    const driven: LegResult[] = [];
    let last: StepResult;
    // One leg per request: between two legs the rover's state is committed, so a cancellation (which
    // aborts `signal`, ending the pause or the request) leaves it stopped on the route, never half-moved.
    for (;;) {
      await sleep(deps.legDelayMs, undefined, { signal });
      last = await deps.roverdt.step(rover_id, ruta_id, 1, signal);
      driven.push(...last.legs);
      const leg = last.legs.at(-1);
      if (leg?.completed) {
        await progress(
          last.route.legs_done,
          total,
          `Tramo ${leg.index}/${total}: rover en ${xy(leg.to)}, batería ${leg.battery_pct} %`,
        );
      }
      if (last.stop || last.route.status !== 'en_curso') break;
    }

    const state = rover(last.rover);
    const data = {
      ruta_id,
      estado: last.route.status,
      tramos_totales: total,
      tramos_hechos: last.route.legs_done,
      tramos_en_esta_llamada: driven.filter((l) => l.completed).length,
      distancia_recorrida_m: round(driven.reduce((a, l) => a + l.distance_m, 0)),
      energia_gastada_wh: round(driven.reduce((a, l) => a + l.energy_wh, 0)),
      parada: last.stop ? parada(last.stop) : null,
      rover: state,
    };
    const resumed = startedAt > 0 ? ` (reanudada desde el tramo ${startedAt + 1})` : '';
    const head =
      data.estado === 'completada'
        ? `Ruta ${ruta_id} completada${resumed}: el rover llegó a ${xy(state.posicion)} tras ` +
          `${data.tramos_en_esta_llamada} tramos en esta llamada (${data.distancia_recorrida_m} m, ` +
          `${data.energia_gastada_wh} Wh).`
        : `Ruta ${ruta_id} DETENIDA en el tramo ${data.tramos_hechos + 1} de ${total}${resumed}: ` +
          `${data.parada?.detalle ?? ''} En esta llamada: ${data.distancia_recorrida_m} m, ` +
          `${data.energia_gastada_wh} Wh.`;
    return { text: `${head}\n${describeRover(state)}`, data };
  },
});

/**
 * With a client that can ask the person: the energy of the legs still to drive against the rover's battery
 * now (one cheap read), and the known soft sand on them (`hazards_ahead`: sand found after the plan was
 * made, which the rover would stop before). A refusal is the route untouched, as the result of a call that
 * drove nothing.
 */
async function askIfRisky(route: Route, { deps, signal, confirm, clientOffers }: RoverdtToolContext) {
  if (!clientOffers('elicitation') || route.status === 'completada' || route.status === 'abandonada') return;
  const current = await deps.roverdt.getRover(route.rover_id, signal);
  const ahead = route.legs.slice(route.legs_done).reduce((a, l) => a + l.energy_wh, 0);
  const leftPct = round((100 * (current.battery_wh - ahead)) / current.battery_capacity_wh);
  const risks = [
    ...(leftPct < BATERIA_CONFIRMAR_PCT
      ? [`dejaría la batería en ${leftPct} % (menos del ${BATERIA_CONFIRMAR_PCT} %)`]
      : []),
    ...(route.hazards_ahead.length > 0
      ? [
          `cruza arena blanda conocida en ${route.hazards_ahead.slice(0, 5).map(xy).join(', ')}` +
            (route.hazards_ahead.length > 5 ? ` y ${route.hazards_ahead.length - 5} celdas más` : '') +
            ' (hallada después de planificarla: el rover se detendrá delante; replanificar la evita)',
        ]
      : []),
  ];
  if (risks.length === 0) return;
  const risk = risks.join('; y ');
  const answer = await confirm(`¿Ejecutar la ruta ${route.id} de ${route.rover_id}? ${risk}.`);
  if (answer.status === 'accepted' || answer.status === 'unavailable') return;
  const state = rover(current);
  const data = {
    ruta_id: route.id,
    estado: route.status,
    tramos_totales: route.legs.length,
    tramos_hechos: route.legs_done,
    tramos_en_esta_llamada: 0,
    distancia_recorrida_m: 0,
    energia_gastada_wh: 0,
    parada: null,
    rover: state,
  };
  const text =
    `No se ejecutó la ruta ${route.id} (${risk}): ${answer.message} El rover no se ha movido.\n` +
    describeRover(state);
  return { text, data };
}

const round = (value: number) => Math.round(value * 10) / 10;
