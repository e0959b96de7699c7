import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';

export const buscarCursos = defineTool({
  name: 'buscar_cursos',
  title: 'Buscar cursos',
  toolset: 'cursos',
  description:
    'Busca cursos de la academia por texto (título, descripción, etiquetas o títulos de lección) y devuelve ' +
    'cada curso con sus lecciones en orden (id, título, minutos, cuestionario). Sin texto, lista todos. ' +
    'Úsala para encontrar el id de un curso, de una lección o de un cuestionario antes de registrar avance, ' +
    'responder un cuestionario o leer una lección.',
  input: z.strictObject({
    texto: z.string().trim().min(1).max(100).optional().describe('Texto a buscar, p. ej. "MCP" o "SGP4"'),
  }),
  output: z.object({
    cursos: z.array(
      z.object({
        id: z.string(),
        titulo: z.string(),
        descripcion: z.string(),
        nivel: z.enum(['inicial', 'intermedio', 'avanzado']),
        horas: z.int(),
        etiquetas: z.array(z.string()),
        estudiantes: z.int().describe('Estudiantes matriculados'),
        lecciones: z.array(
          z.object({
            id: z.string(),
            orden: z.int(),
            titulo: z.string(),
            minutos: z.int(),
            quiz: z.string().optional().describe('Cuestionario de la lección, si tiene'),
          }),
        ),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ texto }, { deps, signal }: AcademyToolContext) {
    const { courses } = await deps.academy.searchCourses(texto, signal);
    const details = await Promise.all(courses.map((c) => deps.academy.getCourse(c.id, signal)));
    const cursos = details.map((c) => ({
      id: c.id,
      titulo: c.title,
      descripcion: c.description,
      nivel: c.level,
      horas: c.hours,
      etiquetas: c.tags,
      estudiantes: c.student_count,
      lecciones: c.lessons.map((l) => ({
        id: l.id,
        orden: l.position,
        titulo: l.title,
        minutos: l.minutes,
        ...(l.quiz ? { quiz: l.quiz } : {}),
      })),
    }));
    if (cursos.length === 0) {
      return {
        text: `Ningún curso coincide con "${texto}". Prueba otro texto o llama sin texto para verlos todos.`,
        data: { cursos },
      };
    }
    const blocks = cursos.map(
      (c) =>
        `- ${c.id}: ${c.titulo} (${c.nivel}, ${c.horas} h, ${c.estudiantes} estudiantes)\n` +
        c.lecciones
          .map(
            (l) =>
              `    ${l.orden}. ${l.id}: ${l.titulo} (${l.minutos} min)${l.quiz ? ` [quiz ${l.quiz}]` : ''}`,
          )
          .join('\n'),
    );
    const head = texto ? `${cursos.length} cursos con "${texto}":` : `${cursos.length} cursos:`;
    return { text: `${head}\n${blocks.join('\n')}`, data: { cursos } };
  },
});
