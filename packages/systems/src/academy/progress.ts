import {
  type CourseProgress,
  type RecordProgressResult,
  STUDENT_ID_RULE,
  type StudentProgress,
} from '@code-cluster/shared/academy';
import { refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import type { Courses } from './courses.js';
import type { AcademyStore, EnrollmentRow, StudentRow } from './store.js';

/** Students' progress: what each has completed of the courses they are enrolled in. */
export class Progress {
  constructor(
    private readonly store: AcademyStore,
    private readonly courses: Courses,
    private readonly now: () => number,
  ) {}

  of(studentId: string): StudentProgress {
    const who = this.student(studentId);
    return {
      student: { id: who.id, name: who.nombre, cohort: who.cohorte, country: who.pais },
      courses: this.store.enrollments(who.id).map((e) => this.inCourse(who.id, e)),
    };
  }

  /** Marks a lesson completed; a lesson completed before keeps its first date. */
  record(studentId: string, lessonId: string): RecordProgressResult {
    const who = this.student(studentId);
    const what = this.courses.lessonRow(lessonId);
    return this.store.transaction(() => {
      const enrollment = this.enrollment(who.id, what.curso_id);
      const before = this.store.isCompleted(who.id, what.id);
      const at = before?.completado_en ?? isoUtc(this.now());
      if (!before) this.store.recordProgress(who.id, what.id, at);
      return {
        student: who.id,
        lesson: what.id,
        lesson_title: what.titulo,
        course: what.curso_id,
        completed_at: at,
        already_completed: before !== undefined,
        progress: this.inCourse(who.id, enrollment),
      };
    });
  }

  student(id: string): StudentRow {
    const row = this.store.getStudent(id);
    if (row) return row;
    throw refuse.notFound(
      `No existe el estudiante '${id}'. Los identificadores de estudiante son ${STUDENT_ID_RULE}.`,
      { student: id },
    );
  }

  /** The student's enrollment in a course; nothing of a course is recorded for who is not enrolled. */
  enrollment(studentId: string, courseId: string): EnrollmentRow {
    const enrollments = this.store.enrollments(studentId);
    const found = enrollments.find((e) => e.curso_id === courseId);
    if (found) return found;
    throw refuse.conflict(
      `El estudiante ${studentId} no está matriculado en el curso '${courseId}' ` +
        `(sus cursos: ${enrollments.map((e) => e.curso_id).join(', ') || 'ninguno'}); no se puede registrar ` +
        'nada de ese curso.',
      { student: studentId, course: courseId },
    );
  }

  private inCourse(studentId: string, enrollment: EnrollmentRow): CourseProgress {
    const courseId = enrollment.curso_id;
    const lessons = this.store.lessonsOf(courseId);
    const done = new Set(this.store.completedLessons(studentId, courseId).map((r) => r.leccion_id));
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
      attempts: this.store.attempts(studentId, courseId).map((a) => ({
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
