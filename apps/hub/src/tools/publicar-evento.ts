import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { HubToolContext } from '../deps.js';
import { datosEvento } from './datos.js';
import { eventoRef, topico } from './schemas.js';

export const publicarEvento = defineTool({
  name: 'publicar_evento',
  title: 'Publicar un evento',
  toolset: 'publicacion',
  description:
    'Publica un evento en un tópico del hub (el tópico se crea con su primer evento). Úsala para avisar a ' +
    'otros sistemas o agentes de algo que pasó: un contacto agendado, una alerta, un avance. El evento queda ' +
    "guardado de forma duradera antes de responder. No es idempotente por sí sola: si pasas 'clave_idempotencia' " +
    '(única por evento), reintentar con la misma clave nunca lo duplica y devuelve el evento original; sin ' +
    'clave, cada llamada publica un evento nuevo. Datos: un objeto JSON de hasta 64 KiB.',
  input: z.strictObject({
    topico,
    tipo: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9][a-z0-9._-]*$/)
      .describe('Tipo del evento, p. ej. contacto.agendado'),
    datos: datosEvento,
    clave_idempotencia: z
      .string()
      .min(1)
      .max(128)
      .regex(/^[A-Za-z0-9._:@/+=-]+$/)
      .optional()
      .describe('Clave única de este evento; repítela solo para reintentar exactamente el mismo evento'),
  }),
  output: z.object({
    evento: eventoRef,
    duplicado: z
      .boolean()
      .describe('true: la clave ya se había usado y no se publicó nada nuevo; evento es el original'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ topico, tipo, datos, clave_idempotencia }, { deps, signal }: HubToolContext) {
    const { event, duplicate } = await deps.hub.publish(
      topico,
      { type: tipo, data: datos, ...(clave_idempotencia ? { idempotency_key: clave_idempotencia } : {}) },
      signal,
    );
    const data = {
      evento: {
        id: event.id,
        topico: event.topic,
        secuencia: event.seq,
        cursor: event.cursor,
        tipo: event.type,
        publicado_en: event.published_at,
        clave_idempotencia: event.idempotency_key,
      },
      duplicado: duplicate,
    };
    const text = duplicate
      ? `Reintento reconocido: la clave '${clave_idempotencia}' ya publicó el evento #${event.seq} en ` +
        `'${event.topic}' (${event.published_at}); no se duplicó.`
      : `Evento #${event.seq} publicado en '${event.topic}' (tipo ${event.type}, id ${event.id}, ${event.published_at}).`;
    return { text, data };
  },
});
