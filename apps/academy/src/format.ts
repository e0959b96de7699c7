import { type CourseProgress, STUDENT_ID, STUDENT_ID_RULE } from '@code-cluster/shared/academy';
import { z } from 'zod';

/** Output shapes, arguments and Spanish text shared by academy's tools. */

const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const estudianteArg = z
  .string()
  .min(1)
  .max(64)
  .regex(STUDENT_ID)
  .describe(`Identificador del estudiante: ${STUDENT_ID_RULE}`);

export const leccionArg = z
  .string()
  .min(1)
  .max(64)
  .regex(slug)
  .describe('Identificador de la lección, p. ej. mcp-01-nxm (buscar_cursos las lista)');

export const quizArg = z
  .string()
  .min(1)
  .max(64)
  .regex(/^quiz-[a-z0-9]+(?:-[a-z0-9]+)*$/)
  .describe(
    'Identificador del cuestionario: quiz- seguido de minúsculas, dígitos y guiones, p. ej. quiz-mcp-01',
  );

export const progresoCursoSchema = z.object({
  curso: z.string(),
  titulo: z.string(),
  matriculado_en: z.string(),
  completadas: z.int(),
  total: z.int(),
  porcentaje: z.number(),
  lecciones_completadas: z.array(z.string()),
  siguiente_leccion: z.string().optional().describe('Primera lección sin completar, en el orden del curso'),
  intentos: z.array(
    z.object({
      intento_id: z.int(),
      quiz: z.string(),
      aciertos: z.int(),
      total: z.int(),
      aprobado: z.boolean(),
      enviado_en: z.string(),
    }),
  ),
});
export type ProgresoCurso = z.infer<typeof progresoCursoSchema>;

export function progresoCurso(p: CourseProgress): ProgresoCurso {
  return {
    curso: p.course,
    titulo: p.title,
    matriculado_en: p.enrolled_at,
    completadas: p.completed,
    total: p.total,
    porcentaje: p.percent,
    lecciones_completadas: p.completed_lessons,
    ...(p.next_lesson ? { siguiente_leccion: p.next_lesson } : {}),
    intentos: p.attempts.map((a) => ({
      intento_id: a.attempt_id,
      quiz: a.quiz,
      aciertos: a.correct,
      total: a.total,
      aprobado: a.passed,
      enviado_en: a.submitted_at,
    })),
  };
}

export function describeProgreso(p: ProgresoCurso): string {
  const next = p.siguiente_leccion ? `; siguiente: ${p.siguiente_leccion}` : '; curso completado';
  return `${p.curso} (${p.titulo}): ${p.completadas}/${p.total} lecciones (${p.porcentaje} %)${next}`;
}
