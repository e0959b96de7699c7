import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import { academyApi as api } from './api.js';
import type { SqlQueryRequest, SubmitQuizRequest } from './schemas.js';

/** Typed client of the academy platform's REST API (packages/shared/src/academy/api.ts). */
export class AcademyClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'sistema de la academia', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.send(api.health, {}, signal);
  }

  /** Courses whose title, description, tags or lessons contain `text` (all of them without it). */
  searchCourses(text?: string, signal?: AbortSignal) {
    return this.rest.send(api.searchCourses, { query: { q: text } }, signal);
  }

  getCourse(course: string, signal?: AbortSignal) {
    return this.rest.send(api.getCourse, { params: { course } }, signal);
  }

  getLesson(course: string, lesson: string, signal?: AbortSignal) {
    return this.rest.send(api.getLesson, { params: { course, lesson } }, signal);
  }

  /** A lesson by its id alone (ids are unique across courses). */
  findLesson(lesson: string, signal?: AbortSignal) {
    return this.rest.send(api.findLesson, { params: { lesson } }, signal);
  }

  getQuiz(quiz: string, signal?: AbortSignal) {
    return this.rest.send(api.getQuiz, { params: { quiz } }, signal);
  }

  progress(student: string, signal?: AbortSignal) {
    return this.rest.send(api.progress, { params: { student } }, signal);
  }

  recordProgress(student: string, lesson: string, signal?: AbortSignal) {
    return this.rest.send(api.recordProgress, { params: { student }, body: { lesson } }, signal);
  }

  submitQuiz(quiz: string, request: SubmitQuizRequest, signal?: AbortSignal) {
    return this.rest.send(api.submitQuiz, { params: { quiz }, body: request }, signal);
  }

  /** Runs one read-only analytics query; the system refuses anything but a single SELECT. */
  query(request: SqlQueryRequest, signal?: AbortSignal) {
    return this.rest.send(api.query, { body: request }, signal);
  }

  listTables(signal?: AbortSignal) {
    return this.rest.send(api.listTables, {}, signal);
  }

  getTable(table: string, signal?: AbortSignal) {
    return this.rest.send(api.getTable, { params: { table } }, signal);
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
