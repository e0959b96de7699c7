import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';
import { describeProgreso, estudianteArg, progresoCurso, progresoCursoSchema } from '../format.js';

export const progresoEstudiante = defineTool({
  name: 'progreso_estudiante',
  title: 'Progreso de un estudiante',
  toolset: 'progreso',
  description:
    'Progreso de un estudiante en cada curso en el que está matriculado: lecciones completadas, porcentaje, ' +
    'siguiente lección e intentos de cuestionario con su nota. Úsala para saber por dónde va un estudiante ' +
    'antes de recomendarle la siguiente lección o un cuestionario.',
  input: z.strictObject({ estudiante: estudianteArg }),
  output: z.object({
    estudiante: z.object({ id: z.string(), nombre: z.string(), cohorte: z.string(), pais: z.string() }),
    cursos: z.array(progresoCursoSchema),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ estudiante }, { deps, signal }: AcademyToolContext) {
    const p = await deps.academy.progress(estudiante, signal);
    const data = {
      estudiante: {
        id: p.student.id,
        nombre: p.student.name,
        cohorte: p.student.cohort,
        pais: p.student.country,
      },
      cursos: p.courses.map(progresoCurso),
    };
    const lines = data.cursos.map((c) => {
      const passed = c.intentos.filter((i) => i.aprobado).length;
      const quizzes =
        c.intentos.length > 0 ? `; ${c.intentos.length} intentos de quiz (${passed} aprobados)` : '';
      return `- ${describeProgreso(c)}${quizzes}`;
    });
    const text =
      `${data.estudiante.nombre} (${data.estudiante.id}, cohorte ${data.estudiante.cohorte}): ` +
      (lines.length === 0
        ? 'no está matriculado en ningún curso.'
        : `${lines.length} cursos\n${lines.join('\n')}`);
    return { text, data };
  },
});
