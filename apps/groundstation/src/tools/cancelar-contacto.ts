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
    'agendar_contacto y agenda_estacion. Un contacto ya cancelado, en curso o pasado no se puede cancelar.',
  input: z.strictObject({
    contacto_id: z
      .string()
      .regex(/^ct-[0-9a-f]{12}$/)
      .describe("Identificador del contacto: 'ct-' y 12 dígitos hexadecimales, p. ej. ct-3f9a0c1d2e4b"),
  }),
  output: contactoSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler({ contacto_id }, { deps, signal }: GroundstationToolContext) {
    const data = contacto(await deps.groundstation.cancelContact(contacto_id, signal));
    const text =
      `Contacto ${data.contacto_id} cancelado: la antena ${data.antena} de ${data.estacion} queda libre ` +
      `de ${data.inicio} a ${data.fin}.`;
    return { text, data };
  },
});
