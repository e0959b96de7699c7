import { DomainError, defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { estacionArg, instanteArg, mantenimiento, mantenimientoSchema } from '../format.js';

/** Operator only: registered only when the server runs with `--scope operador`, refused otherwise. */
export const programarMantenimiento = defineTool({
  name: 'programar_mantenimiento',
  title: 'Programar mantenimiento (operador)',
  toolset: 'mantenimiento',
  description:
    'Herramienta de operador: programa una ventana de mantenimiento en una estación; durante ella no se ' +
    'admiten contactos. Úsala solo cuando un operador pida parar una estación. Las ventanas se suman: una ' +
    'nueva nunca sustituye a otra (para quitar una, cancelar_mantenimiento). Falla si la ventana se solapa ' +
    'con contactos agendados (cancélalos antes) o si esa misma ventana ya está programada. Si el cliente ' +
    'admite elicitation, pide confirmación a la persona antes.',
  input: z.strictObject({
    estacion: estacionArg,
    inicio: instanteArg('Inicio del mantenimiento'),
    fin: instanteArg('Fin del mantenimiento, futuro y como mucho 90 días después del inicio'),
    motivo: z.string().min(3).max(500).describe('Motivo, tal como lo verán quienes intenten agendar'),
  }),
  output: mantenimientoSchema.extend({
    mantenimiento_id: z.string().optional().describe('Falta si no se programó'),
    no_programado: z
      .string()
      .optional()
      .describe('Por qué no se programó: la persona no lo confirmó (solo con clientes con elicitation)'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ estacion, inicio, fin, motivo }, { deps, signal, confirm }: GroundstationToolContext) {
    if (deps.scope !== 'operador') {
      // Second wall: the tool is not registered outside operator scope, and refuses if reached anyway.
      throw new DomainError(
        'programar_mantenimiento es una herramienta de operador y este servidor funciona con alcance ' +
          "'consulta'. Pide a un operador que programe el mantenimiento.",
      );
    }
    const answer = await confirm(
      `¿Programar mantenimiento en ${estacion} del ${inicio} al ${fin} (${motivo})? Durante esa ventana la ` +
        'estación no admitirá contactos.',
    );
    if (answer.status !== 'accepted' && answer.status !== 'unavailable') {
      const data = {
        estacion,
        inicio,
        fin,
        motivo,
        origen: 'operador' as const,
        no_programado: answer.message,
      };
      return { text: `No se programó el mantenimiento en ${estacion}: ${answer.message}`, data };
    }
    const window = await deps.groundstation.programMaintenance(
      estacion,
      { start: inicio, end: fin, reason: motivo },
      signal,
    );
    const data = mantenimiento(window);
    const text =
      `Mantenimiento ${data.mantenimiento_id} programado en ${data.estacion} del ${data.inicio} al ${data.fin}: ` +
      `${data.motivo}. Durante esa ventana la estación no admite contactos.`;
    return { text, data };
  },
});
