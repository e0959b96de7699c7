import type { Course, CourseSummary, Lesson, LessonSummary } from '@code-cluster/shared/academy';
import { refuse } from '../refusal.js';
import type { AcademyQueries, CourseRow, LessonRow } from './store.js';

/** The course catalog: search, courses with their lessons, and each lesson's text. */
export class Courses {
  constructor(private readonly store: AcademyQueries) {}

  async search(text: string | undefined): Promise<CourseSummary[]> {
    return (await this.store.searchCourses(text || undefined)).map(courseSummary);
  }

  async course(id: string): Promise<Course> {
    const row = await this.courseRow(id);
    return { ...courseSummary(row), lessons: (await this.store.lessonsOf(row.id)).map(lessonSummary) };
  }

  /** A lesson by its course and id: refused when it belongs to another course. */
  async lessonOf(courseId: string, lessonId: string): Promise<Lesson> {
    const course = await this.courseRow(courseId);
    const found = await this.lessonRow(lessonId);
    if (found.curso_id !== course.id) {
      throw refuse.notFound(
        `La lección '${found.id}' no es del curso '${course.id}' sino de '${found.curso_id}'.`,
        { lesson: found.id },
      );
    }
    return lessonView(found);
  }

  async lesson(id: string): Promise<Lesson> {
    return lessonView(await this.lessonRow(id));
  }

  async lessonRow(id: string): Promise<LessonRow> {
    const row = await this.store.getLesson(id);
    if (row) return row;
    throw refuse.notFound(
      `No existe la lección '${id}'. buscar_cursos y el recurso academia://cursos/{curso}/lecciones/{leccion} ` +
        'muestran las lecciones de cada curso.',
      { lesson: id },
    );
  }

  private async courseRow(id: string): Promise<CourseRow> {
    const row = await this.store.getCourse(id);
    if (row) return row;
    const ids = (await this.store.searchCourses()).map((c) => c.id);
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
