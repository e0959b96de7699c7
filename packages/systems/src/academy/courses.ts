import type { Course, CourseSummary, Lesson, LessonSummary } from '@code-cluster/shared/academy';
import { refuse } from '../refusal.js';
import type { AcademyStore, CourseRow, LessonRow } from './store.js';

/** The course catalog: search, courses with their lessons, and each lesson's text. */
export class Courses {
  constructor(private readonly store: AcademyStore) {}

  search(text: string | undefined): CourseSummary[] {
    return this.store.searchCourses(text || undefined).map(courseSummary);
  }

  course(id: string): Course {
    const row = this.courseRow(id);
    return { ...courseSummary(row), lessons: this.store.lessonsOf(row.id).map(lessonSummary) };
  }

  /** A lesson by its course and id: refused when it belongs to another course. */
  lessonOf(courseId: string, lessonId: string): Lesson {
    const course = this.courseRow(courseId);
    const found = this.lessonRow(lessonId);
    if (found.curso_id !== course.id) {
      throw refuse.notFound(
        `La lección '${found.id}' no es del curso '${course.id}' sino de '${found.curso_id}'.`,
        { lesson: found.id },
      );
    }
    return lessonView(found);
  }

  lesson(id: string): Lesson {
    return lessonView(this.lessonRow(id));
  }

  lessonRow(id: string): LessonRow {
    const row = this.store.getLesson(id);
    if (row) return row;
    throw refuse.notFound(
      `No existe la lección '${id}'. buscar_cursos y el recurso academia://cursos/{curso}/lecciones/{leccion} ` +
        'muestran las lecciones de cada curso.',
      { lesson: id },
    );
  }

  private courseRow(id: string): CourseRow {
    const row = this.store.getCourse(id);
    if (row) return row;
    const ids = this.store.searchCourses().map((c) => c.id);
    throw refuse.notFound(`No existe el curso '${id}'. Cursos disponibles: ${ids.join(', ')}.`, {
      course: id,
    });
  }
}

function courseSummary(row: CourseRow): CourseSummary {
  return {
    id: row.id,
    title: row.titulo,
    description: row.descripcion,
    level: row.nivel,
    hours: row.horas,
    tags: row.etiquetas ? row.etiquetas.split(',') : [],
    lesson_count: row.lecciones,
    student_count: row.estudiantes,
  };
}

function lessonSummary(row: LessonRow): LessonSummary {
  return {
    id: row.id,
    course: row.curso_id,
    position: row.orden,
    title: row.titulo,
    minutes: row.minutos,
    ...(row.quiz_id ? { quiz: row.quiz_id } : {}),
  };
}

function lessonView(row: LessonRow): Lesson {
  return { ...lessonSummary(row), course_title: row.curso_titulo, markdown: row.contenido_md };
}
