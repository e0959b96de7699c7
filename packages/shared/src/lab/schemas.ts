import { z } from 'zod';

/** REST resources of the lab suite. Both the system and its client use these. */

const isoTime = z.iso.datetime({ offset: false });

/** A lab id is one kebab-case token (`mcp-handshake`), so it fits one URI path segment. */
export const LAB_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const LabIdSchema = z.string().min(1).max(64).regex(LAB_ID_PATTERN);

/**
 * A student id as the academy's roster writes it, the one format of the cluster: lowercase words (letters
 * and digits) joined by hyphens, e.g. `ana-garcia`.
 */
export const STUDENT_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const StudentIdSchema = z.string().min(1).max(64).regex(STUDENT_PATTERN);

export const SESSION_ID_PATTERN = /^ses-[0-9a-f]{12}$/;
export const SUBMISSION_ID_PATTERN = /^ent-[0-9a-f]{12}$/;
export const SessionIdSchema = z.string().regex(SESSION_ID_PATTERN);
export const SubmissionIdSchema = z.string().regex(SUBMISSION_ID_PATTERN);

/** Largest submission, as UTF-8 bytes: a long transcript fits; a log dump does not. */
export const MAX_SUBMISSION_BYTES = 64 * 1024;

/** What a lab asks the student to submit. */
export const SubmissionFormatSchema = z.enum(['transcripcion-jsonrpc', 'definicion-de-herramienta']);

export const LabRuleSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Spanish: what the rule checks and why. */
  description: z.string(),
});
export type LabRule = z.infer<typeof LabRuleSchema>;

export const LabSummarySchema = z.object({
  id: LabIdSchema,
  title: z.string(),
  summary: z.string(),
  format: SubmissionFormatSchema,
  rules: z.array(LabRuleSchema),
});
export type LabSummary = z.infer<typeof LabSummarySchema>;
export const LabListSchema = z.object({ labs: z.array(LabSummarySchema) });

/** `GET /v1/students/{student}/labs`: the labs a student has passed (in any session), by id. */
export const StudentLabsSchema = z.object({ student: z.string(), passed: z.array(LabIdSchema) });
export type StudentLabs = z.infer<typeof StudentLabsSchema>;

export const LabDetailSchema = LabSummarySchema.extend({
  /** Graduated hints, vaguest first: a tutor gives them one at a time. */
  hints: z.array(z.string()),
});
export type LabDetail = z.infer<typeof LabDetailSchema>;

export const StatementSchema = z.object({ lab: LabIdSchema, title: z.string(), markdown: z.string() });
export type Statement = z.infer<typeof StatementSchema>;

export const StartSessionRequestSchema = z.strictObject({ lab: LabIdSchema, student: StudentIdSchema });
export type StartSessionRequest = z.infer<typeof StartSessionRequestSchema>;

export const SessionSchema = z.object({
  id: SessionIdSchema,
  lab: LabIdSchema,
  // Not the pattern: sessions stored before the one format (`ana.garcia`) must still be readable.
  student: z.string(),
  started_at: isoTime,
  submissions: z.int().min(0),
  /** On creation: whether the academy's roster confirmed the student, and what was checked or why not. */
  student_verified: z.boolean().optional(),
  student_note: z.string().optional(),
});
export type LabSession = z.infer<typeof SessionSchema>;

/** The size limit is checked by the system in bytes; the schema only bounds the characters. */
export const SubmitRequestSchema = z.strictObject({ content: z.string().min(1).max(MAX_SUBMISSION_BYTES) });

/**
 * `fallo_interno`: the grader failed (its bug, not the student's); `no_terminada`: the submission made the
 * grading overrun its budget or kill its grader, which counts as not passed and is never retried.
 */
export const SubmissionStatusSchema = z.enum([
  'pendiente',
  'evaluando',
  'evaluada',
  'fallo_interno',
  'no_terminada',
]);
export type SubmissionStatus = z.infer<typeof SubmissionStatusSchema>;

export const SubmissionSchema = z.object({
  id: SubmissionIdSchema,
  session_id: SessionIdSchema,
  lab: LabIdSchema,
  student: z.string(),
  submitted_at: isoTime,
  size_bytes: z.int().min(1),
  status: SubmissionStatusSchema,
  rules_total: z.int().min(0),
  rules_done: z.int().min(0),
  finished_at: isoTime.nullable(),
  /** Why the grading did not finish (`no_terminada`), in Spanish; absent from older systems. */
  reason: z.string().nullable().optional(),
});
export type Submission = z.infer<typeof SubmissionSchema>;

export const RuleOutcomeSchema = z.enum(['superada', 'fallida', 'no_aplica']);
export type RuleOutcome = z.infer<typeof RuleOutcomeSchema>;

export const FindingSchema = z.object({
  /** 1-based line of the submission that breaks the rule; null when the finding is about the whole of it. */
  line: z.int().min(1).nullable(),
  /** Spanish explanation of what is wrong there and what the rule asks for. */
  message: z.string(),
  /** The offending line as the student wrote it (trimmed): student content, to be shown as data. */
  excerpt: z.string().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

export const RuleResultSchema = z.object({
  rule: z.string(),
  title: z.string(),
  outcome: RuleOutcomeSchema,
  findings: z.array(FindingSchema),
});
export type RuleResult = z.infer<typeof RuleResultSchema>;

export const GradingResultSchema = z.object({
  submission: SubmissionSchema,
  /**
   * true when graded with no rule failed; false when a rule failed or the grading did not finish
   * (`no_terminada`); null while grading runs or when the grader failed.
   */
  passed: z.boolean().nullable(),
  /** The rules graded so far, in the lab's order. */
  rules: z.array(RuleResultSchema),
});
export type GradingResult = z.infer<typeof GradingResultSchema>;

export const LabHealthSchema = z.object({ status: z.literal('ok'), system: z.string(), version: z.string() });
