import {
  type CourseProgress,
  type RecordProgressResult,
  STUDENT_ID_RULE,
  type StudentProgress,
} from '@code-cluster/shared/academy';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import type { Courses } from './courses.js';
import type { AcademyQueries, AcademyStore, EnrollmentRow, StudentRow } from './store.js';

/** Students' progress: what each has completed of the courses they are enrolled in. */
export class Progress {
  constructor(
    private readonly store: AcademyStore,
    private readonly courses: Courses,
    private readonly now: () => number,
  ) {}

  async of(studentId: string): Promise<StudentProgress> {
    const who = await this.student(studentId);
    const courses: CourseProgress[] = [];
    for (const e of await this.store.enrollments(who.id))
      courses.push(await this.inCourse(this.store, who.id, e));
    return {
      student: { id: who.id, name: who.nombre, cohort: who.cohorte, country: who.pais },
      courses,
    };
  }

  /** Marks a lesson completed; a lesson completed before keeps its first date. */
  async record(studentId: string, lessonId: string): Promise<RecordProgressResult> {
    const who = await this.student(studentId);
    const what = await this.courses.lessonRow(lessonId);
    return this.store.transaction(async (tx) => {
      const enrollment = await this.enrollment(who.id, what.curso_id, tx);
      const before = await tx.isCompleted(who.id, what.id);
      let at = before?.completado_en ?? isoUtc(this.now());
      let already = before !== undefined;
      if (!before && !(await tx.recordProgress(who.id, what.id, at))) {
        // Another replica recorded it between the read and the insert: its date stands.
        at = (await tx.isCompleted(who.id, what.id))?.completado_en ?? at;
        already = true;
      }
      return {
        student: who.id,
        lesson: what.id,
        lesson_title: what.titulo,
        course: what.curso_id,
        completed_at: at,
        already_completed: already,
        progress: await this.inCourse(tx, who.id, enrollment),
      };
    });
  }

  async student(id: string): Promise<StudentRow> {
    const row = await this.store.getStudent(id);
    if (row) return row;
    throw refuse.notFound(
      `No existe el estudiante '${id}'. Los identificadores de estudiante son ${STUDENT_ID_RULE}.`,
      { student: id },
    );
  }

  /** The student's enrollment in a course; nothing of a course is recorded for who is not enrolled. */
  async enrollment(
    studentId: string,
    courseId: string,
    q: AcademyQueries = this.store,
  ): Promise<EnrollmentRow> {
    const enrollments = await q.enrollments(studentId);
    const found = enrollments.find((e) => e.curso_id === courseId);
    if (found) return found;
    throw refuse.conflict(
      `El estudiante ${studentId} no está matriculado en el curso '${courseId}' ` +
        `(sus cursos: ${enrollments.map((e) => e.curso_id).join(', ') || 'ninguno'}); no se puede registrar ` +
        'nada de ese curso.',
      { student: studentId, course: courseId },
    );
  }

  private async inCourse(
    q: AcademyQueries,
    studentId: string,
    enrollment: EnrollmentRow,
  ): Promise<CourseProgress> {
    const courseId = enrollment.curso_id;
    const lessons = await q.lessonsOf(courseId);
    const done = new Set((await q.completedLessons(studentId, courseId)).map((r) => r.leccion_id));
    const attempts = await q.attempts(studentId, courseId);
    const next = lessons.find((l) => !done.has(l.id));
    return {
      course: courseId,
      title: enrollment.titulo,
      enrolled_at: enrollment.matriculado_en,
      completed: done.size,
      total: lessons.length,
      percent: lessons.length === 0 ? 0 : Math.round((done.size / lessons.length) * 1000) / 10,
      completed_lessons: lessons.filter((l) => done.has(l.id)).map((l) => l.id),
      ...(next ? { next_lesson: next.id } : {}),
      attempts: attempts.map((a) => ({
        attempt_id: a.id,
        quiz: a.quiz_id,
        correct: a.aciertos,
        total: a.total,
        passed: a.aprobado === 1,
        submitted_at: a.enviado_en,
      })),
    };
  }
}
