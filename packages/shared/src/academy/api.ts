import { z } from 'zod';
import { endpoint } from '../rest/endpoint.js';
import {
  AcademyHealthSchema,
  CourseListSchema,
  CourseSchema,
  LessonSchema,
  QuizResultSchema,
  QuizSchema,
  RecordProgressRequestSchema,
  RecordProgressResultSchema,
  SqlQueryRequestSchema,
  SqlResultSchema,
  StudentProgressSchema,
  SubmitQuizRequestSchema,
  TableListSchema,
  TableSchema,
} from './schemas.js';

// Ids in paths are looked up, not pattern-checked: an id of the wrong shape is one that does not exist
// (404, naming the ones there are).
const id = z.string();

/** The academy platform's REST API: what AcademyClient sends and the academy system routes. */
export const academyApi = {
  health: endpoint({ method: 'GET', path: '/healthz', response: AcademyHealthSchema }),
  searchCourses: endpoint({
    method: 'GET',
    path: '/v1/courses',
    query: z.object({ q: z.string().trim().max(200).optional() }),
    response: CourseListSchema,
  }),
  getCourse: endpoint({
    method: 'GET',
    path: '/v1/courses/:course',
    params: z.object({ course: id }),
    response: CourseSchema,
  }),
  getLesson: endpoint({
    method: 'GET',
    path: '/v1/courses/:course/lessons/:lesson',
    params: z.object({ course: id, lesson: id }),
    response: LessonSchema,
  }),
  findLesson: endpoint({
    method: 'GET',
    path: '/v1/lessons/:lesson',
    params: z.object({ lesson: id }),
    response: LessonSchema,
  }),
  getQuiz: endpoint({
    method: 'GET',
    path: '/v1/quizzes/:quiz',
    params: z.object({ quiz: id }),
    response: QuizSchema,
  }),
  submitQuiz: endpoint({
    method: 'POST',
    path: '/v1/quizzes/:quiz/attempts',
    params: z.object({ quiz: id }),
    body: SubmitQuizRequestSchema,
    response: QuizResultSchema,
  }),
  progress: endpoint({
    method: 'GET',
    path: '/v1/students/:student/progress',
    params: z.object({ student: id }),
    response: StudentProgressSchema,
  }),
  recordProgress: endpoint({
    method: 'POST',
    path: '/v1/students/:student/progress',
    params: z.object({ student: id }),
    body: RecordProgressRequestSchema,
    response: RecordProgressResultSchema,
  }),
  query: endpoint({
    method: 'POST',
    path: '/v1/sql',
    body: SqlQueryRequestSchema,
    response: SqlResultSchema,
  }),
  listTables: endpoint({ method: 'GET', path: '/v1/schema/tables', response: TableListSchema }),
  getTable: endpoint({
    method: 'GET',
    path: '/v1/schema/tables/:table',
    params: z.object({ table: id }),
    response: TableSchema,
  }),
};
export type AcademyApi = typeof academyApi;
