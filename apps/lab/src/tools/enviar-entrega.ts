import { defineTool } from '@code-cluster/mcp-kit';
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
    'llamada crea una entrega nueva.',
  input: z.strictObject({
    sesion_id: z.string().regex(SESSION_ID_PATTERN).describe('El sesion_id de iniciar_laboratorio'),
    contenido: z
      .string()
      .min(1)
      .max(MAX_SUBMISSION_BYTES)
      .describe('El trabajo, tal cual (hasta 64 KiB en UTF-8)'),
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
  async handler({ sesion_id, contenido }, { deps, signal }: LabToolContext) {
    const s = await deps.lab.submit(sesion_id, contenido, signal);
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
