import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { LabToolContext } from '../deps.js';
import { statementUri } from '../resources.js';

export const listarLaboratorios = defineTool({
  name: 'listar_laboratorios',
  title: 'Listar los laboratorios',
  toolset: 'catalogo',
  description:
    'Lista los laboratorios de la academia: qué se entrega en cada uno y qué reglas comprueba su corrector. ' +
    'Úsala para elegir un laboratorio antes de iniciar_laboratorio, o para saber qué reglas se evaluarán.',
  input: z.strictObject({}),
  output: z.object({
    laboratorios: z.array(
      z.object({
        id: z.string(),
        titulo: z.string(),
        resumen: z.string(),
        formato_entrega: z.string(),
        enunciado_uri: z.string(),
        reglas: z.array(z.object({ id: z.string(), titulo: z.string() })),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { deps, signal }: LabToolContext) {
    const { labs } = await deps.lab.listLabs(signal);
    const data = {
      laboratorios: labs.map((l) => ({
        id: l.id,
        titulo: l.title,
        resumen: l.summary,
        formato_entrega: l.format,
        enunciado_uri: statementUri(l.id),
        reglas: l.rules.map((r) => ({ id: r.id, titulo: r.title })),
      })),
    };
    const text = [
      `${labs.length} laboratorios:`,
      ...labs.map(
        (l) =>
          `- ${l.id} — ${l.title}: ${l.summary} (${l.rules.length} reglas: ` +
          `${l.rules.map((r) => r.id).join(', ')}; enunciado en ${statementUri(l.id)})`,
      ),
    ].join('\n');
    return { text, data };
  },
});
