import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';
import {
  describeProgreso,
  estudianteArg,
  leccionArg,
  progresoCurso,
  progresoCursoSchema,
} from '../format.js';

export const registrarAvance = defineTool({
  name: 'registrar_avance',
  title: 'Registrar una lección completada',
  toolset: 'progreso',
  description:
    'Marca una lección como completada por un estudiante y devuelve su progreso en el curso. Úsala cuando el ' +
    'estudiante termine una lección. Repetirla no duplica nada (indica que ya estaba completada). Falla si el ' +
    'estudiante no está matriculado en el curso de la lección o si la lección no existe.',
  input: z.strictObject({ estudiante: estudianteArg, leccion: leccionArg }),
  output: z.object({
    estudiante: z.string(),
    leccion: z.string(),
    titulo_leccion: z.string(),
    curso: z.string(),
    completada_en: z.string(),
    ya_estaba_completada: z.boolean(),
    progreso: progresoCursoSchema,
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ estudiante, leccion }, { deps, signal }: AcademyToolContext) {
    const r = await deps.academy.recordProgress(estudiante, leccion, signal);
    const data = {
      estudiante: r.student,
      leccion: r.lesson,
      titulo_leccion: r.lesson_title,
      curso: r.course,
      completada_en: r.completed_at,
      ya_estaba_completada: r.already_completed,
      progreso: progresoCurso(r.progress),
    };
    const what = data.ya_estaba_completada
      ? `${data.estudiante} ya había completado ${data.leccion} (${data.completada_en}); no se ha cambiado nada.`
      : `Registrado: ${data.estudiante} completó ${data.leccion} (${data.titulo_leccion}) el ${data.completada_en}.`;
    return { text: `${what}\nProgreso: ${describeProgreso(data.progreso)}.`, data };
  },
});
