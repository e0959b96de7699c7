import { z } from 'zod';

/** REST resources of the academy platform. Both the system and its client use these. */

const isoTime = z.iso.datetime({ offset: false });

/** Course, lesson, quiz and student ids: lowercase words joined by dashes (`mcp-01-nxm`, `est-007`). */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SlugSchema = z.string().min(1).max(64).regex(SLUG);
/**
 * Student ids, the one format of the cluster (the academy's roster owns it; the lab checks against it):
 * the name and surname in lowercase ASCII joined by hyphens, `ana-garcia`.
 */
export const STUDENT_ID = SLUG;
export const STUDENT_ID_RULE =
  'minúsculas sin acentos (a-z), dígitos y guiones entre palabras: nombre y apellido, p. ej. ana-garcia ' +
  '(no ana.garcia ni Ana-Garcia)';
/** Question keys inside a quiz (`p1`) and option keys inside a question (`a`). */
export const QuestionKeySchema = z.string().regex(/^p[0-9]{1,2}$/);
export const OptionKeySchema = z.string().regex(/^[a-f]$/);

/** Limits of the analytics SQL endpoint; the tool states the same numbers. */
export const SQL_MAX_CHARS = 10_000;
export const SQL_MAX_PARAMS = 100;
export const SQL_ROW_LIMIT = 500;
/** Bound of a result's rows serialised as JSON; rows past it are left out and the result says so. */
export const SQL_BYTE_LIMIT = 1_000_000;
export const SQL_TIMEOUT_MS = 2_000;

export const LevelSchema = z.enum(['inicial', 'intermedio', 'avanzado']);

export const CourseSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  level: LevelSchema,
  hours: z.int().min(0),
  tags: z.array(z.string()),
  lesson_count: z.int().min(0),
  student_count: z.int().min(0),
});
export type CourseSummary = z.infer<typeof CourseSummarySchema>;
export const CourseListSchema = z.object({ courses: z.array(CourseSummarySchema) });

export const LessonSummarySchema = z.object({
  id: z.string(),
  course: z.string(),
  position: z.int().min(1),
  title: z.string(),
  minutes: z.int().min(1),
  /** The lesson's quiz, if it has one. */
  quiz: z.string().optional(),
});
export type LessonSummary = z.infer<typeof LessonSummarySchema>;

export const CourseSchema = CourseSummarySchema.extend({ lessons: z.array(LessonSummarySchema) });
export type Course = z.infer<typeof CourseSchema>;

export const LessonSchema = LessonSummarySchema.extend({
  course_title: z.string(),
  /** Markdown written by the course's authors. */
  markdown: z.string(),
});
export type Lesson = z.infer<typeof LessonSchema>;

export const QuizSchema = z.object({
  id: z.string(),
  course: z.string(),
  lesson: z.string(),
  title: z.string(),
  /** Share of right answers needed to pass, 0–1. */
  pass_ratio: z.number().min(0).max(1),
  /** The questions without their answers. */
  questions: z.array(
    z.object({
      key: z.string(),
      text: z.string(),
      options: z.array(z.object({ key: z.string(), text: z.string() })),
    }),
  ),
});
export type Quiz = z.infer<typeof QuizSchema>;

export const StudentSchema = z.object({
  id: z.string(),
  name: z.string(),
  cohort: z.string(),
  country: z.string(),
});

export const AttemptSummarySchema = z.object({
  attempt_id: z.int(),
  quiz: z.string(),
  correct: z.int().min(0),
  total: z.int().min(0),
  passed: z.boolean(),
  submitted_at: isoTime,
});

export const CourseProgressSchema = z.object({
  course: z.string(),
  title: z.string(),
  enrolled_at: isoTime,
  completed: z.int().min(0),
  total: z.int().min(0),
  percent: z.number().min(0).max(100),
  completed_lessons: z.array(z.string()),
  /** The first lesson not yet completed, in course order. */
  next_lesson: z.string().optional(),
  attempts: z.array(AttemptSummarySchema),
});
export type CourseProgress = z.infer<typeof CourseProgressSchema>;

export const StudentProgressSchema = z.object({
  student: StudentSchema,
  courses: z.array(CourseProgressSchema),
});
export type StudentProgress = z.infer<typeof StudentProgressSchema>;

export const RecordProgressRequestSchema = z.strictObject({ lesson: SlugSchema });

export const RecordProgressResultSchema = z.object({
  student: z.string(),
  lesson: z.string(),
  lesson_title: z.string(),
  course: z.string(),
  completed_at: isoTime,
  /** True when the lesson was already completed: nothing was written. */
  already_completed: z.boolean(),
  progress: CourseProgressSchema,
});
export type RecordProgressResult = z.infer<typeof RecordProgressResultSchema>;

export const SubmitQuizRequestSchema = z.strictObject({
  student: SlugSchema,
  /** Question key → chosen option key. */
  answers: z.record(QuestionKeySchema, OptionKeySchema),
});
export type SubmitQuizRequest = z.infer<typeof SubmitQuizRequestSchema>;

export const QuizResultSchema = z.object({
  attempt_id: z.int(),
  quiz: z.string(),
  student: z.string(),
  correct: z.int().min(0),
  total: z.int().min(0),
  passed: z.boolean(),
  submitted_at: isoTime,
  results: z.array(
    z.object({
      question: z.string(),
      text: z.string(),
      /** The option the student chose; absent when unanswered. */
      given: z.string().optional(),
      correct_option: z.string(),
      is_correct: z.boolean(),
      explanation: z.string(),
    }),
  ),
});
export type QuizResult = z.infer<typeof QuizResultSchema>;

export const SqlValueSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const SqlQueryRequestSchema = z.strictObject({
  // Not bounded by SQL_MAX_CHARS here: the system's guard refuses longer text with a Spanish message.
  sql: z.string().min(1),
  params: z.array(SqlValueSchema).max(SQL_MAX_PARAMS).default([]),
  /** Fewer rows than the system's limit, when the caller wants only a few. */
  limit: z.int().min(1).max(SQL_ROW_LIMIT).optional(),
  /**
   * Who asks (opaque, e.g. one per MCP session): the system runs one query per session at a time and
   * queues only a few more, so one session's slow queries never hold every worker.
   */
  session: z.string().min(1).max(128).optional(),
});
export type SqlQueryRequest = z.input<typeof SqlQueryRequestSchema>;

export const SqlResultSchema = z.object({
  columns: z.array(z.string()),
  /** One array per row, values in column order; blobs arrive as `<blob N bytes>`. */
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  row_count: z.int().min(0),
  /** True when rows are missing: more than `row_limit`, or past `byte_limit` (see `truncated_by`). */
  truncated: z.boolean(),
  truncated_by: z.enum(['rows', 'bytes']).optional(),
  row_limit: z.int().min(1),
  byte_limit: z.int().min(1),
  /** Size of `rows` as JSON. */
  bytes: z.int().min(0),
  elapsed_ms: z.number().min(0),
});
export type SqlResult = z.infer<typeof SqlResultSchema>;

export const ColumnSchema = z.object({
  name: z.string(),
  type: z.string(),
  nullable: z.boolean(),
  /** The column's DEFAULT as SQL text, or null when it has none. */
  default: z.string().nullable(),
  primary_key: z.boolean(),
});

export const TableSchema = z.object({
  name: z.string(),
  description: z.string(),
  row_count: z.int().min(0),
  columns: z.array(ColumnSchema),
  foreign_keys: z.array(z.object({ column: z.string(), references: z.string() })),
});
export type Table = z.infer<typeof TableSchema>;
export const TableListSchema = z.object({ tables: z.array(TableSchema) });

export const AcademyHealthSchema = z.object({
  status: z.literal('ok'),
  system: z.string(),
  version: z.string(),
});
