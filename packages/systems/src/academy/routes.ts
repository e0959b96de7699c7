import type { AcademyApi } from '@code-cluster/shared/academy';
import { type Handlers, Reply } from '../http/router.js';
import type { Analytics } from './analytics.js';
import type { Courses } from './courses.js';
import type { Progress } from './progress.js';
import type { Quizzes } from './quizzes.js';

export const ACADEMY_VERSION = '0.1.0';

export interface AcademyServices {
  courses: Courses;
  progress: Progress;
  quizzes: Quizzes;
  analytics: Analytics;
}

/** Each endpoint of the academy's API (packages/shared/src/academy/api.ts) to its use case. */
export function academyRoutes({
  courses,
  progress,
  quizzes,
  analytics,
}: AcademyServices): Handlers<AcademyApi> {
  return {
    health: () => ({ status: 'ok', system: 'academy', version: ACADEMY_VERSION }),
    searchCourses: async ({ query }) => ({ courses: await courses.search(query.q) }),
    getCourse: ({ params }) => courses.course(params.course),
    getLesson: ({ params }) => courses.lessonOf(params.course, params.lesson),
    findLesson: ({ params }) => courses.lesson(params.lesson),
    getQuiz: ({ params }) => quizzes.get(params.quiz),
    submitQuiz: async ({ params, body }) => new Reply(201, await quizzes.submit(params.quiz, body)),
    progress: ({ params }) => progress.of(params.student),
    recordProgress: ({ params, body }) => progress.record(params.student, body.lesson),
    query: ({ body, signal }) => analytics.query(body, signal),
    listTables: async () => ({ tables: await analytics.tables() }),
    getTable: ({ params }) => analytics.table(params.table),
  };
}
