import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { contacto, contactoSchema, estacionArg, instanteArg } from '../format.js';

export const agendarContacto = defineTool({
  name: 'agendar_contacto',
  title: 'Agendar un contacto',
  toolset: 'contactos',
  description:
    'Reserva una antena de una estación para contactar con un satélite entre inicio y fin (normalmente AOS ' +
    'y LOS de un pase de proximos_pases). Úsala cuando ya sepas la ventana del pase y la estación esté ' +
    'operativa. La ventana debe ser futura y durar de 1 min a 4 h; si no indicas antena se elige la primera ' +
    'libre. Falla, explicando por qué, si la estación está en mantenimiento, si el satélite no está sobre la ' +
    'máscara de la estación en esa ventana (entonces nombra los próximos pases), si no existe o está ' +
    'retirado, o si la ventana se solapa con otro contacto de la antena o del mismo satélite.',
  input: z.strictObject({
    estacion: estacionArg,
    norad_id: z.int().min(1).max(339_999).describe('Número NORAD del satélite'),
    inicio: instanteArg('Inicio del contacto'),
    fin: instanteArg('Fin del contacto, posterior al inicio y como mucho 4 h después'),
    antena: z
      .string()
      .regex(/^[a-z]{2}-[a-z]{1,3}\d{1,2}$/)
      .optional()
      .describe('Antena concreta de la estación (p. ej. mx-x1); por defecto, la primera libre'),
  }),
  output: contactoSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ estacion, norad_id, inicio, fin, antena }, { deps, signal }: GroundstationToolContext) {
    const booked = await deps.groundstation.bookContact(
      { station: estacion, norad_id, start: inicio, end: fin, ...(antena ? { antenna: antena } : {}) },
      signal,
    );
    const data = contacto(booked);
    const text =
      `Contacto ${data.contacto_id} agendado en ${data.estacion}, antena ${data.antena} (banda ${data.banda}): ` +
      `NORAD ${data.norad_id} de ${data.inicio} a ${data.fin} (${data.duracion_min} min). ` +
      `Para anularlo, cancelar_contacto con contacto_id ${data.contacto_id}.`;
    return { text, data };
  },
});
