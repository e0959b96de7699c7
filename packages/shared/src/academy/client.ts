import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import {
  AcademyHealthSchema,
  CourseListSchema,
  CourseSchema,
  LessonSchema,
  QuizResultSchema,
  QuizSchema,
  RecordProgressResultSchema,
  type SqlQueryRequest,
  SqlResultSchema,
  StudentProgressSchema,
  type SubmitQuizRequest,
  TableListSchema,
  TableSchema,
} from './schemas.js';

const enc = encodeURIComponent;

/** Typed client of the academy platform's REST API. */
export class AcademyClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'sistema de la academia', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.get('/healthz', AcademyHealthSchema, undefined, signal);
  }

  /** Courses whose title, description, tags or lessons contain `text` (all of them without it). */
  searchCourses(text?: string, signal?: AbortSignal) {
    return this.rest.get('/v1/courses', CourseListSchema, { q: text }, signal);
  }

  getCourse(course: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/courses/${enc(course)}`, CourseSchema, undefined, signal);
  }

  getLesson(course: string, lesson: string, signal?: AbortSignal) {
    return this.rest.get(
      `/v1/courses/${enc(course)}/lessons/${enc(lesson)}`,
      LessonSchema,
      undefined,
      signal,
    );
  }

  /** A lesson by its id alone (ids are unique across courses). */
  findLesson(lesson: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/lessons/${enc(lesson)}`, LessonSchema, undefined, signal);
  }

  getQuiz(quiz: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/quizzes/${enc(quiz)}`, QuizSchema, undefined, signal);
  }

  progress(student: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/students/${enc(student)}/progress`, StudentProgressSchema, undefined, signal);
  }

  recordProgress(student: string, lesson: string, signal?: AbortSignal) {
    return this.rest.call(
      { method: 'POST', path: `/v1/students/${enc(student)}/progress`, body: { lesson } },
      RecordProgressResultSchema,
      signal,
    );
  }

  submitQuiz(quiz: string, request: SubmitQuizRequest, signal?: AbortSignal) {
    return this.rest.call(
      { method: 'POST', path: `/v1/quizzes/${enc(quiz)}/attempts`, body: request },
      QuizResultSchema,
      signal,
    );
  }

  /** Runs one read-only analytics query; the system refuses anything but a single SELECT. */
  query(request: SqlQueryRequest, signal?: AbortSignal) {
    return this.rest.call({ method: 'POST', path: '/v1/sql', body: request }, SqlResultSchema, signal);
  }

  listTables(signal?: AbortSignal) {
    return this.rest.get('/v1/schema/tables', TableListSchema, undefined, signal);
  }

  getTable(table: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/schema/tables/${enc(table)}`, TableSchema, undefined, signal);
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
