import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import { type LabToolContext, progressOf } from '../deps.js';
import { lockedLabError, missingBefore } from '../progress.js';
import { statementUri } from '../resources.js';
import { estudiante, laboratorio } from './schemas.js';

export const iniciarLaboratorio = defineTool({
  name: 'iniciar_laboratorio',
  title: 'Iniciar un laboratorio',
  toolset: 'entregas',
  description:
    'Abre una sesión de un estudiante en un laboratorio y devuelve su sesion_id. Úsala antes de la primera ' +
    'entrega; cada llamada abre una sesión nueva (no es idempotente), así que guarda el sesion_id y reutilízalo ' +
    'para todas las entregas de ese intento. Los laboratorios se desbloquean en orden: uno se abre cuando el ' +
    'estudiante ha aprobado los anteriores.',
  input: z.strictObject({ laboratorio, estudiante }),
  output: z.object({
    sesion_id: z.string().describe('Pásalo a enviar_entrega'),
    laboratorio: z.string(),
    estudiante: z.string(),
    iniciada_en: z.string().describe('ISO-8601 UTC'),
    enunciado_uri: z.string(),
    estudiante_verificado: z
      .boolean()
      .describe('true si la academia confirmó al estudiante; false si no se pudo comprobar (ver aviso)'),
    aviso: z.string().optional().describe('Por qué no se pudo comprobar al estudiante'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ laboratorio, estudiante }, { deps, signal }: LabToolContext) {
    const [{ labs }, { passed }] = await Promise.all([
      deps.lab.listLabs(signal),
      deps.lab.studentLabs(estudiante, signal),
    ]);
    const catalogue = labs.map((l) => l.id);
    // Naming a student makes this MCP session theirs: its listed statements follow their progress.
    progressOf(deps).follow(estudiante, passed, catalogue);
    const missing = missingBefore(catalogue, new Set(passed), laboratorio);
    if (missing.length > 0) throw lockedLabError(laboratorio, estudiante, missing);
    const session = await deps.lab.startSession({ lab: laboratorio, student: estudiante }, signal);
    const data = {
      sesion_id: session.id,
      laboratorio: session.lab,
      estudiante: session.student,
      iniciada_en: session.started_at,
      enunciado_uri: statementUri(session.lab),
      // An older lab system does not check students: not verified, and said so.
      estudiante_verificado: session.student_verified ?? false,
      ...(session.student_verified === true
        ? {}
        : { aviso: session.student_note ?? 'El sistema de laboratorios no comprobó al estudiante.' }),
    };
    const text =
      `Sesión ${session.id} iniciada en '${session.lab}' para ${session.student} (${session.started_at}). ` +
      `Lee el enunciado en ${statementUri(session.lab)} y envía el trabajo con enviar_entrega ` +
      `{sesion_id: "${session.id}", contenido}.${data.aviso ? ` Aviso: ${data.aviso}` : ''}`;
    return { text, data };
  },
});
