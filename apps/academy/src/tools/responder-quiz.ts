import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';
import { estudianteArg, quizArg } from '../format.js';

export const responderQuiz = defineTool({
  name: 'responder_quiz',
  title: 'Responder un cuestionario',
  toolset: 'quizzes',
  description:
    'Envía las respuestas de un estudiante a un cuestionario, lo corrige y guarda el intento. Devuelve la ' +
    'nota, si aprueba y, por pregunta, la opción correcta y su explicación. Úsala cuando el estudiante ya ' +
    'haya elegido sus respuestas (claves de pregunta p1, p2… y de opción a–f; buscar_cursos da el id del ' +
    'cuestionario y ver_quiz sus preguntas). Una pregunta sin responder cuenta como fallo. Cada llamada es un intento nuevo.',
  input: z.strictObject({
    estudiante: estudianteArg,
    quiz: quizArg,
    respuestas: z
      .record(z.string().regex(/^p[0-9]{1,2}$/), z.string().regex(/^[a-f]$/))
      .refine((r) => Object.keys(r).length >= 1 && Object.keys(r).length <= 50, {
        message: 'debe tener entre 1 y 50 respuestas',
      })
      .describe('Respuesta elegida por pregunta: {"p1": "b", "p2": "c"}'),
  }),
  output: z.object({
    intento_id: z.int(),
    quiz: z.string(),
    estudiante: z.string(),
    aciertos: z.int(),
    total: z.int(),
    aprobado: z.boolean(),
    enviado_en: z.string(),
    resultados: z.array(
      z.object({
        pregunta: z.string(),
        enunciado: z.string(),
        respuesta: z.string().optional().describe('Opción elegida; falta si no respondió'),
        correcta: z.string(),
        acierto: z.boolean(),
        explicacion: z.string(),
      }),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler({ estudiante, quiz, respuestas }, { deps, signal }: AcademyToolContext) {
    const r = await deps.academy.submitQuiz(quiz, { student: estudiante, answers: respuestas }, signal);
    const data = {
      intento_id: r.attempt_id,
      quiz: r.quiz,
      estudiante: r.student,
      aciertos: r.correct,
      total: r.total,
      aprobado: r.passed,
      enviado_en: r.submitted_at,
      resultados: r.results.map((q) => ({
        pregunta: q.question,
        enunciado: q.text,
        ...(q.given === undefined ? {} : { respuesta: q.given }),
        correcta: q.correct_option,
        acierto: q.is_correct,
        explicacion: q.explanation,
      })),
    };
    const lines = data.resultados.map(
      (q) =>
        `- ${q.pregunta}: ${q.acierto ? 'bien' : `mal (respondió ${q.respuesta ?? 'nada'}, correcta ${q.correcta})`}` +
        (q.acierto ? '' : `. ${q.explicacion}`),
    );
    const text =
      `Intento ${data.intento_id} de ${data.estudiante} en ${data.quiz}: ${data.aciertos}/${data.total} ` +
      `${data.aprobado ? 'APROBADO' : 'NO APROBADO'}.\n${lines.join('\n')}`;
    return { text, data };
  },
});
