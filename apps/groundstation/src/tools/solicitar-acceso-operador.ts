import { randomUUID } from 'node:crypto';
import { defineTool, openCredentialPage, timeToAnswer } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { accesoSchema, elevate, HOW_TO_OPERATE } from './access.js';

export const solicitarAccesoOperador = defineTool({
  name: 'solicitar_acceso_operador',
  title: 'Solicitar acceso de operador',
  toolset: 'mantenimiento',
  description:
    'Pide acceso de operador para esta sesión (programar y cancelar mantenimientos). Úsala cuando el ' +
    'usuario, que es operador, quiera gestionar mantenimientos. Con un cliente que admite elicitation por ' +
    'URL, abre una página local de un solo uso donde la persona escribe la credencial de operador: la ' +
    'credencial nunca pasa por el modelo ni por el cliente. Si se concede, aparecen las herramientas de ' +
    'operador (y dejar_acceso_operador para soltarlas). Si no se puede, dice cómo obtener el acceso.',
  input: z.strictObject({}),
  output: accesoSchema,
  // It changes what this session is offered, never any data (like activar_grupo).
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, context: GroundstationToolContext) {
    const { deps, clientOffers, openUrl, completeUrl, confirm, signal, deadline } = context;
    const elevation = deps.elevation;
    const kept = (why: string) => ({
      text: `No se concedió el acceso de operador: ${why}`,
      data: { acceso: deps.scope, cambiado: false, herramientas: [] },
    });
    if (deps.scope === 'operador') {
      return {
        text: 'Esta sesión ya tiene acceso de operador.',
        data: { acceso: deps.scope, cambiado: false, herramientas: [] },
      };
    }
    if (deps.readOnly) {
      return kept(
        'el servidor funciona en modo solo lectura (--read-only) y no tiene herramientas de operador.',
      );
    }
    if (!elevation?.possible) {
      return kept(`este servidor no está configurado para concederlo. ${HOW_TO_OPERATE}`);
    }

    if (elevation.credential !== undefined && clientOffers('url-elicitation')) {
      const page = await openCredentialPage({
        title: 'Acceso de operador — estaciones terrenas CO.DE',
        explanation:
          'Escribe la credencial de operador de groundstation-mcp para dar acceso de operador a la sesión ' +
          'que lo pidió. La credencial no llega al modelo ni al cliente.',
        expected: elevation.credential,
      });
      // The page lives as long as the call: it goes when the call is cancelled, and a moment before the
      // call's timeout, so that the tool can still say what happened.
      const onAbort = () => page.close();
      signal.addEventListener('abort', onAbort, { once: true });
      const expiry = setTimeout(onAbort, timeToAnswer(deadline));
      try {
        const elicitationId = randomUUID();
        const opened = await openUrl(
          'Para dar acceso de operador a esta sesión, abre esta página local y escribe allí la credencial ' +
            'de operador (un solo intento).',
          page.url,
          elicitationId,
        );
        if (opened.status !== 'accepted') return kept(opened.message);
        // Until the page is sent or the call ends (its timeout, a cancellation), whichever comes first.
        const outcome = await page.outcome;
        await completeUrl(elicitationId);
        if (outcome === 'invalid') {
          return kept(
            'la credencial escrita no coincide. La página ya no sirve: vuelve a llamar a ' +
              'solicitar_acceso_operador para otro intento.',
          );
        }
        if (outcome === 'closed') return kept('no se envió la página a tiempo; ya no sirve.');
        return elevate(context);
      } finally {
        clearTimeout(expiry);
        signal.removeEventListener('abort', onAbort);
        page.close();
      }
    }

    if (elevation.confirm && clientOffers('elicitation')) {
      const answer = await confirm(
        '¿Dar acceso de operador a esta sesión? Podrá programar y cancelar mantenimientos de las estaciones.',
      );
      return answer.status === 'accepted' ? elevate(context) : kept(answer.message);
    }
    return kept(
      clientOffers('elicitation')
        ? `el cliente no admite elicitation por URL, y la credencial no puede pedirse en un formulario del cliente. ${HOW_TO_OPERATE}`
        : `el cliente no admite elicitation. ${HOW_TO_OPERATE}`,
    );
  },
});
