import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import {
  contacto,
  contactoSchema,
  describeContacto,
  describeMantenimiento,
  estacionArg,
  mantenimiento,
  mantenimientoSchema,
} from '../format.js';

const DEFAULT_HOURS = 24;

export const agendaEstacion = defineTool({
  name: 'agenda_estacion',
  title: 'Agenda de una estación',
  toolset: 'contactos',
  description:
    'Contactos agendados (no cancelados) y ventanas de mantenimiento de una estación en las próximas horas ' +
    `(1–168, por defecto ${DEFAULT_HOURS}). Úsala para ver qué antenas están libres antes de agendar, o para ` +
    'encontrar el contacto_id de un contacto que quieras cancelar.',
  input: z.strictObject({
    estacion: estacionArg,
    horas: z.int().min(1).max(168).optional().describe(`Horas desde ahora; por defecto ${DEFAULT_HOURS}`),
  }),
  output: z.object({
    estacion: z.string(),
    desde: z.string(),
    hasta: z.string(),
    contactos: z.array(contactoSchema),
    mantenimientos: z.array(mantenimientoSchema),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ estacion, horas = DEFAULT_HOURS }, { deps, signal }: GroundstationToolContext) {
    const schedule = await deps.groundstation.schedule(estacion, { hours: horas }, signal);
    const data = {
      estacion: schedule.station,
      desde: schedule.from,
      hasta: schedule.to,
      contactos: schedule.contacts.map(contacto),
      mantenimientos: schedule.maintenance.map(mantenimiento),
    };
    const head = `Agenda de ${data.estacion} de ${data.desde} a ${data.hasta}: `;
    const contacts =
      data.contactos.length === 0
        ? 'ningún contacto agendado.'
        : `${data.contactos.length} ${data.contactos.length === 1 ? 'contacto' : 'contactos'}:\n` +
          data.contactos.map((c) => `- ${describeContacto(c)}`).join('\n');
    const maintenance = data.mantenimientos.map((m) => `Atención: ${describeMantenimiento(m)}.`);
    return { text: [head + contacts, ...maintenance].join('\n'), data };
  },
});
