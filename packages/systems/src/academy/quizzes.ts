import type { Quiz, QuizResult, SubmitQuizRequest } from '@code-cluster/shared/academy';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import type { Progress } from './progress.js';
import type { AcademyStore, QuestionRow, QuizRow } from './store.js';

/** Quizzes: their questions without the answers, and attempts graded against the private answers. */
export class Quizzes {
  constructor(
    private readonly store: AcademyStore,
    private readonly progress: Progress,
    private readonly now: () => number,
  ) {}

  async get(id: string): Promise<Quiz> {
    const quiz = await this.quiz(id);
    return {
      id: quiz.id,
      course: quiz.curso_id,
      lesson: quiz.leccion_id,
      title: quiz.titulo,
      pass_ratio: quiz.nota_minima,
      questions: (await this.store.questions(quiz.id)).map((q) => ({
        key: q.clave,
        text: q.enunciado,
        options: Object.entries(options(q)).map(([key, text]) => ({ key, text })),
      })),
    };
  }

  /** Grades and stores one attempt of an enrolled student. */
  async submit(quizId: string, { student, answers }: SubmitQuizRequest): Promise<QuizResult> {
    const quiz = await this.quiz(quizId);
    const who = await this.progress.student(student);
    const questions = await this.store.questions(quiz.id);
    checkAnswers(quiz, questions, answers);
    const results = questions.map((q) => {
      const given = answers[q.clave];
      return {
        question: q.clave,
        text: q.enunciado,
        ...(given === undefined ? {} : { given }),
        correct_option: q.correcta,
        is_correct: given === q.correcta,
        explanation: q.explicacion,
      };
    });
    const correct = results.filter((r) => r.is_correct).length;
    const passed = questions.length > 0 && correct / questions.length >= quiz.nota_minima;
    const submittedAt = isoUtc(this.now());
    const attemptId = await this.store.transaction(async (tx) => {
      await this.progress.enrollment(who.id, quiz.curso_id, tx);
      return tx.insertAttempt({
        quiz_id: quiz.id,
        estudiante_id: who.id,
        respuestas_json: JSON.stringify(answers),
        aciertos: correct,
        total: questions.length,
        aprobado: passed ? 1 : 0,
        enviado_en: submittedAt,
      });
    });
    return {
      attempt_id: attemptId,
      quiz: quiz.id,
      student: who.id,
      correct,
      total: questions.length,
      passed,
      submitted_at: submittedAt,
      results,
    };
  }

  private async quiz(id: string): Promise<QuizRow> {
    const quiz = await this.store.getQuiz(id);
    if (quiz) return quiz;
    throw refuse.notFound(`No existe el cuestionario '${id}'.`, { quiz: id });
  }
}

const options = (question: QuestionRow) => JSON.parse(question.opciones_json) as Record<string, string>;

/** Every answer names a question of the quiz and one of that question's options. */
function checkAnswers(quiz: QuizRow, questions: QuestionRow[], answers: Record<string, string>): void {
  const keys = new Set(questions.map((q) => q.clave));
  const unknown = Object.keys(answers).filter((k) => !keys.has(k));
  if (unknown.length > 0) {
    throw refuse.unprocessable(
      `El cuestionario ${quiz.id} no tiene las preguntas ${unknown.join(', ')}; sus preguntas son ` +
        `${[...keys].join(', ')}.`,
      { questions: unknown },
    );
  }
  for (const q of questions) {
    const given = answers[q.clave];
    const keysOf = Object.keys(options(q));
    if (given !== undefined && !keysOf.includes(given)) {
      throw refuse.unprocessable(
        `La pregunta ${q.clave} no tiene la opción '${given}'; sus opciones son ${keysOf.join(', ')}.`,
        { question: q.clave },
      );
    }
  }
}
