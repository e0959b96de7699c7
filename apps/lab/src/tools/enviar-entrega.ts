import { DomainError, defineTool, readTextInRoots } from '@code-cluster/mcp-kit';
import { MAX_SUBMISSION_BYTES, SESSION_ID_PATTERN } from '@code-cluster/shared/lab';
import { z } from 'zod';
import type { LabToolContext } from '../deps.js';

export const enviarEntrega = defineTool({
  name: 'enviar_entrega',
  title: 'Enviar una entrega',
  toolset: 'entregas',
  description:
    'Envía el trabajo de una sesión (p. ej. la transcripción JSON-RPC de mcp-handshake, una línea por ' +
    'mensaje) y lo pone a corregir; devuelve el entrega_id al instante, sin esperar a la corrección. Úsala ' +
    'cuando el estudiante tenga lista su entrega; luego llama a resultado_entrega. Máximo 64 KiB. Cada ' +
    "llamada crea una entrega nueva. Pasa el trabajo en 'contenido' o, si el cliente comparte sus carpetas " +
    "(roots), la ruta de un archivo de texto dentro de ellas en 'archivo' (exactamente uno de los dos).",
  input: z
    .strictObject({
      sesion_id: z.string().regex(SESSION_ID_PATTERN).describe('El sesion_id de iniciar_laboratorio'),
      contenido: z
        .string()
        .min(1)
        .max(MAX_SUBMISSION_BYTES)
        .optional()
        .describe('El trabajo, tal cual (hasta 64 KiB en UTF-8)'),
      archivo: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe(
          'En lugar de contenido: ruta absoluta o URI file:// de un archivo de texto UTF-8 (hasta 64 KiB) ' +
            'dentro de las carpetas que comparte el cliente',
        ),
    })
    .refine((args) => (args.contenido === undefined) !== (args.archivo === undefined), {
      message: "pasa exactamente uno de 'contenido' o 'archivo'",
      path: ['contenido'],
    }),
  output: z.object({
    entrega_id: z.string().describe('Pásalo a resultado_entrega'),
    sesion_id: z.string(),
    laboratorio: z.string(),
    estado: z.string(),
    tamano_bytes: z.int(),
    reglas_total: z.int(),
    enviada_en: z.string().describe('ISO-8601 UTC'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ sesion_id, contenido, archivo }, { deps, signal, roots }: LabToolContext) {
    let work = contenido ?? '';
    if (archivo !== undefined) {
      const shared = await roots();
      if (shared.status !== 'accepted') {
        throw new DomainError(
          `No se puede leer '${archivo}': ${shared.message} Pega el trabajo en 'contenido' en lugar de 'archivo'.`,
        );
      }
      work = (
        await readTextInRoots(archivo, shared.value, { argument: 'archivo', maxBytes: MAX_SUBMISSION_BYTES })
      ).text;
    }
    const s = await deps.lab.submit(sesion_id, work, signal);
    const data = {
      entrega_id: s.id,
      sesion_id: s.session_id,
      laboratorio: s.lab,
      estado: s.status,
      tamano_bytes: s.size_bytes,
      reglas_total: s.rules_total,
      enviada_en: s.submitted_at,
    };
    const text =
      `Entrega ${s.id} recibida (${s.size_bytes} bytes, laboratorio '${s.lab}'); la corrección de sus ` +
      `${s.rules_total} reglas está en marcha. Consulta el resultado con resultado_entrega ` +
      `{entrega_id: "${s.id}"}.`;
    return { text, data };
  },
});
