import { defineTool, fenceUntrusted } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';
import { quizArg } from '../format.js';

export const verQuiz = defineTool({
  name: 'ver_quiz',
  title: 'Ver un cuestionario',
  toolset: 'quizzes',
  description:
    'Muestra las preguntas de un cuestionario con sus opciones (claves p1, p2… y a–f), sin las respuestas ' +
    'correctas. Úsala para presentar el cuestionario a un estudiante antes de responder_quiz; buscar_cursos ' +
    'da el id del cuestionario de cada lección. Las respuestas y explicaciones solo llegan al corregir.',
  input: z.strictObject({ quiz: quizArg }),
  output: z.object({
    id: z.string(),
    titulo: z.string(),
    curso: z.string(),
    leccion: z.string(),
    nota_minima: z.number().describe('Fracción de aciertos necesaria para aprobar, 0–1'),
    preguntas: z.array(
      z.object({
        clave: z.string(),
        enunciado: z.string(),
        opciones: z.array(z.object({ clave: z.string(), texto: z.string() })),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ quiz }, { deps, signal }: AcademyToolContext) {
    const q = await deps.academy.getQuiz(quiz, signal);
    const data = {
      id: q.id,
      titulo: q.title,
      curso: q.course,
      leccion: q.lesson,
      nota_minima: q.pass_ratio,
      preguntas: q.questions.map((p) => ({
        clave: p.key,
        enunciado: p.text,
        opciones: p.options.map((o) => ({ clave: o.key, texto: o.text })),
      })),
    };
    const body = data.preguntas
      .map(
        (p) => `${p.clave}. ${p.enunciado}\n${p.opciones.map((o) => `   ${o.clave}) ${o.texto}`).join('\n')}`,
      )
      .join('\n');
    const text =
      `${data.id}: ${data.titulo} (lección ${data.leccion}, ${data.preguntas.length} preguntas; se aprueba con ` +
      `${Math.round(data.nota_minima * 100)} % de aciertos).\n${fenceUntrusted('preguntas del cuestionario', body)}`;
    return { text, data };
  },
});
