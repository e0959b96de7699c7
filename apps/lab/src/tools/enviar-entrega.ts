import { DomainError, defineTool, readTextInRoots } from '@code-cluster/mcp-kit';
import { MAX_SUBMISSION_BYTES, SESSION_ID_PATTERN } from '@code-cluster/shared/lab';
import { z } from 'zod';
import type { LabToolContext } from '../deps.js';
import { CONSEJO_MAX_TOKENS, descriptionAdvice } from '../description-advice.js';

export const enviarEntrega = defineTool({
  name: 'enviar_entrega',
  title: 'Enviar una entrega',
  toolset: 'entregas',
  description:
    'Envía el trabajo de una sesión (p. ej. la transcripción JSON-RPC de mcp-handshake, una línea por ' +
    'mensaje) y lo pone a corregir; devuelve el entrega_id al instante, sin esperar a la corrección. Úsala ' +
    'cuando el estudiante tenga lista su entrega; luego llama a resultado_entrega. Máximo 64 KiB. Cada ' +
    "llamada crea una entrega nueva. Pasa el trabajo en 'contenido' o, si el cliente comparte sus carpetas " +
    "(roots), la ruta de un archivo de texto dentro de ellas en 'archivo' (exactamente uno de los dos). En " +
    'mcp-esquemas, si el cliente ofrece sampling, añade el consejo de su modelo sobre si la descripción dice ' +
    'cuándo usar la herramienta: orientativo, la nota no depende de él.',
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
    consejo_modelo: z
      .object({
        consejo: z.string().optional().describe('Lo que escribió el modelo del cliente'),
        modelo: z.string().optional().describe('El modelo que lo escribió, según el cliente'),
        sin_consejo: z.string().optional().describe('Por qué no hay consejo (el cliente no lo dio)'),
      })
      .optional()
      .describe(
        `Solo en mcp-esquemas con un cliente que ofrece sampling (hasta ${CONSEJO_MAX_TOKENS} tokens): ` +
          'orientativo, la nota no depende de él',
      ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ sesion_id, contenido, archivo }, context: LabToolContext) {
    const { deps, signal, roots } = context;
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
    const received =
      `Entrega ${s.id} recibida (${s.size_bytes} bytes, laboratorio '${s.lab}'); la corrección de sus ` +
      `${s.rules_total} reglas está en marcha. Consulta el resultado con resultado_entrega ` +
      `{entrega_id: "${s.id}"}.`;
    // Asked while the system grades: the advice never reaches the grade, and the grade never waits for it.
    const advice = await descriptionAdvice(s.lab, work, context);
    if (!advice) return { text: received, data };
    const section =
      'consejo' in advice
        ? `Consejo del modelo del cliente (${advice.modelo}), orientativo — la nota no depende de él:\n${advice.consejo}`
        : `Sin consejo del modelo del cliente: ${advice.sin_consejo}`;
    return { text: `${received}\n\n${section}`, data: { ...data, consejo_modelo: advice } };
  },
});
