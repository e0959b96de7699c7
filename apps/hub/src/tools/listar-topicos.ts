import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { HubToolContext } from '../deps.js';
import { plural } from '../format.js';

export const listarTopicos = defineTool({
  name: 'listar_topicos',
  title: 'Listar los tópicos',
  toolset: 'lectura',
  description:
    'Lista los tópicos del hub con su número de eventos, la secuencia del último y cuándo se publicó. Úsala ' +
    'para descubrir qué tópicos existen antes de leer o publicar, o para ver cuáles tienen actividad reciente.',
  input: z.strictObject({}),
  output: z.object({
    topicos: z.array(
      z.object({
        nombre: z.string(),
        eventos: z.int().describe('Eventos que conserva la retención'),
        ultima_secuencia: z.int(),
        ultimo_cursor: z
          .string()
          .describe("Cursor tras el último evento: en 'desde', lee solo lo que llegue"),
        ultimo_evento_en: z.string().nullable(),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { deps, signal }: HubToolContext) {
    const { topics } = await deps.hub.listTopics(signal);
    const data = {
      topicos: topics.map((t) => ({
        nombre: t.name,
        eventos: t.event_count,
        ultima_secuencia: t.last_seq,
        ultimo_cursor: t.last_cursor,
        ultimo_evento_en: t.last_published_at,
      })),
    };
    const text =
      topics.length === 0
        ? 'No hay tópicos todavía: un tópico se crea al publicar su primer evento con publicar_evento.'
        : `${plural(topics.length, 'tópico', 'tópicos')}: ` +
          topics
            .map(
              (t) =>
                `${t.name} (${plural(t.event_count, 'evento', 'eventos')}, último #${t.last_seq}` +
                `${t.last_published_at ? ` el ${t.last_published_at}` : ''})`,
            )
            .join(', ');
    return { text, data };
  },
});
