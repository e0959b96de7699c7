import { defineTool, type ElicitSchema } from '@code-cluster/mcp-kit';
import type { Quiz } from '@code-cluster/shared/academy';
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
    'cuestionario y ver_quiz sus preguntas). Una pregunta sin responder cuenta como fallo. Cada llamada es un ' +
    'intento nuevo. Si faltan respuestas y el cliente admite elicitation, se las pide a la persona (una ' +
    'lista de opciones por pregunta) antes de enviar; si no las da, no se guarda ningún intento.',
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
    enviado: z
      .boolean()
      .describe('false si la persona no completó las respuestas que faltaban: no se guardó ningún intento'),
    intento_id: z.int().nullable().describe('null si no se envió'),
    quiz: z.string(),
    estudiante: z.string(),
    aciertos: z.int().nullable().describe('null si no se envió'),
    total: z.int(),
    aprobado: z.boolean().nullable().describe('null si no se envió'),
    enviado_en: z.string().nullable().describe('null si no se envió'),
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
  async handler({ estudiante, quiz, respuestas }, context: AcademyToolContext) {
    const { deps, signal } = context;
    const asked = await askForMissing(quiz, estudiante, respuestas, context);
    if (asked.status === 'kept') {
      const data = {
        enviado: false,
        intento_id: null,
        quiz: asked.quiz.id,
        estudiante,
        aciertos: null,
        total: asked.quiz.questions.length,
        aprobado: null,
        enviado_en: null,
        resultados: [],
      };
      const text =
        `No se envió el cuestionario ${asked.quiz.id} de ${estudiante} (faltaban ${asked.missing.length} ` +
        `respuestas: ${asked.missing.join(', ')}): ${asked.message} No se guardó ningún intento.`;
      return { text, data };
    }
    const r = await deps.academy.submitQuiz(quiz, { student: estudiante, answers: asked.answers }, signal);
    const data = {
      enviado: true,
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

type Answers = Record<string, string>;

/**
 * With a client that can ask the person: the questions left unanswered, as one form with a list of options
 * per question (none required: a question left blank still counts as wrong). Declined, cancelled or timed
 * out: nothing is submitted, and the result says so.
 */
async function askForMissing(
  quizId: string,
  estudiante: string,
  respuestas: Answers,
  { deps, signal, elicit, clientOffers }: AcademyToolContext,
): Promise<
  { status: 'send'; answers: Answers } | { status: 'kept'; quiz: Quiz; missing: string[]; message: string }
> {
  if (!clientOffers('elicitation')) return { status: 'send', answers: respuestas };
  const quiz = await deps.academy.getQuiz(quizId, signal);
  const missing = quiz.questions.filter((q) => respuestas[q.key] === undefined);
  if (missing.length === 0) return { status: 'send', answers: respuestas };
  const answer = await elicit(
    `Faltan ${missing.length} de ${quiz.questions.length} respuestas de ${estudiante} en "${quiz.title}" ` +
      `(${quiz.id}). Elige una opción por pregunta; la que quede en blanco contará como fallo.`,
    formFor(missing),
  );
  if (answer.status === 'unavailable') return { status: 'send', answers: respuestas };
  if (answer.status === 'accepted') {
    const given = Object.fromEntries(
      Object.entries(answer.value).filter(
        (entry): entry is [string, string] =>
          typeof entry[1] === 'string' && missing.some((q) => q.key === entry[0]),
      ),
    );
    return { status: 'send', answers: { ...respuestas, ...given } };
  }
  return { status: 'kept', quiz, missing: missing.map((q) => q.key), message: answer.message };
}

/** One single-select field per missing question, titled with the question, each option titled with its text. */
function formFor(questions: Quiz['questions']): ElicitSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(
      questions.map((q) => [
        q.key,
        {
          type: 'string',
          title: `${q.key}: ${q.text}`,
          oneOf: q.options.map((o) => ({ const: o.key, title: `${o.key}) ${o.text}` })),
        },
      ]),
    ),
  };
}
