import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { contacto, contactoSchema } from '../format.js';

export const cancelarContacto = defineTool({
  name: 'cancelar_contacto',
  title: 'Cancelar un contacto',
  toolset: 'contactos',
  description:
    'Cancela un contacto agendado que aún no ha empezado y libera su antena. Úsala cuando un contacto ya no ' +
    'haga falta o haya que mover la ventana (cancela y vuelve a agendar). El contacto_id lo dan ' +
    'agendar_contacto y agenda_estacion. Un contacto ya cancelado, en curso o pasado no se puede cancelar. ' +
    'Si el cliente admite elicitation, pide confirmación a la persona antes.',
  input: z.strictObject({
    contacto_id: z
      .string()
      .regex(/^ct-[0-9a-f]{12}$/)
      .describe("Identificador del contacto: 'ct-' y 12 dígitos hexadecimales, p. ej. ct-3f9a0c1d2e4b"),
  }),
  output: contactoSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler({ contacto_id }, { deps, signal, confirm, clientOffers }: GroundstationToolContext) {
    const booked = clientOffers('elicitation')
      ? contacto(await deps.groundstation.getContact(contacto_id, signal))
      : undefined;
    // Only a contact that can still be cancelled is worth a person's decision; the others fail below as before.
    if (booked?.estado === 'programado') {
      const answer = await confirm(
        `¿Cancelar el contacto ${booked.contacto_id} de la antena ${booked.antena} de ${booked.estacion} ` +
          `(NORAD ${booked.norad_id}, de ${booked.inicio} a ${booked.fin})? No se puede deshacer.`,
      );
      if (answer.status !== 'accepted' && answer.status !== 'unavailable') {
        const text = `No se canceló el contacto ${booked.contacto_id}: ${answer.message} Sigue programado.`;
        return { text, data: booked };
      }
    }
    const data = contacto(await deps.groundstation.cancelContact(contacto_id, signal));
    const text =
      `Contacto ${data.contacto_id} cancelado: la antena ${data.antena} de ${data.estacion} queda libre ` +
      `de ${data.inicio} a ${data.fin}.`;
    return { text, data };
  },
});
