import { TOPIC_MAX_LENGTH, TOPIC_PATTERN } from '@code-cluster/shared/hub';
import { z } from 'zod';

/** Argument and output pieces shared by hub-mcp's tools. */

export const topico = z
  .string()
  .min(1)
  .max(TOPIC_MAX_LENGTH)
  .regex(TOPIC_PATTERN)
  .describe('Tópico: minúsculas y dígitos, palabras unidas por punto o guion (p. ej. misiones.alertas)');

export const eventoRef = z.object({
  id: z.string(),
  topico: z.string(),
  secuencia: z.int().describe('Posición del evento en su tópico: 1, 2, 3…'),
  cursor: z.string().describe("Cursor justo después de este evento (para 'desde' en leer_eventos)"),
  tipo: z.string(),
  publicado_en: z.string().describe('ISO-8601 UTC'),
  clave_idempotencia: z.string().nullable(),
});
