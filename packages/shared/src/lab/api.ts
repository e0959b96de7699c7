import { z } from 'zod';
import { endpoint } from '../rest/endpoint.js';
import {
  GradingResultSchema,
  LabDetailSchema,
  LabHealthSchema,
  LabListSchema,
  SessionSchema,
  StartSessionRequestSchema,
  StatementSchema,
  StudentIdSchema,
  StudentLabsSchema,
  SubmissionSchema,
  SubmitRequestSchema,
} from './schemas.js';

// Ids in paths are looked up, not pattern-checked here: an id of the wrong shape is one that does not
// exist (404, naming the id the model should have used), the same as a well-formed unknown one.
const lab = z.object({ lab: z.string() });
const session = z.object({ session: z.string() });
const submission = z.object({ submission: z.string() });
// A student id is pattern-checked: it names no stored row, so a malformed one is bad input (400).
const student = z.object({ student: StudentIdSchema });

/** The lab suite's REST API: what LabClient sends and the lab system routes. */
export const labApi = {
  health: endpoint({ method: 'GET', path: '/healthz', response: LabHealthSchema }),
  listLabs: endpoint({ method: 'GET', path: '/v1/labs', response: LabListSchema }),
  getLab: endpoint({ method: 'GET', path: '/v1/labs/:lab', params: lab, response: LabDetailSchema }),
  statement: endpoint({
    method: 'GET',
    path: '/v1/labs/:lab/statement',
    params: lab,
    response: StatementSchema,
  }),
  startSession: endpoint({
    method: 'POST',
    path: '/v1/sessions',
    body: StartSessionRequestSchema,
    response: SessionSchema,
  }),
  studentLabs: endpoint({
    method: 'GET',
    path: '/v1/students/:student/labs',
    params: student,
    response: StudentLabsSchema,
  }),
  getSession: endpoint({
    method: 'GET',
    path: '/v1/sessions/:session',
    params: session,
    response: SessionSchema,
  }),
  submit: endpoint({
    method: 'POST',
    path: '/v1/sessions/:session/submissions',
    params: session,
    body: SubmitRequestSchema,
    response: SubmissionSchema,
  }),
  getSubmission: endpoint({
    method: 'GET',
    path: '/v1/submissions/:submission',
    params: submission,
    response: SubmissionSchema,
  }),
  result: endpoint({
    method: 'GET',
    path: '/v1/submissions/:submission/result',
    params: submission,
    response: GradingResultSchema,
  }),
};
export type LabApi = typeof labApi;
