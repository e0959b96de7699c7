import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import {
  GradingResultSchema,
  LabDetailSchema,
  LabHealthSchema,
  LabListSchema,
  SessionSchema,
  type StartSessionRequest,
  StatementSchema,
  StudentLabsSchema,
  SubmissionSchema,
} from './schemas.js';

const segment = encodeURIComponent;

/** Typed client of the lab suite's REST API. */
export class LabClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'sistema de laboratorios', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.get('/healthz', LabHealthSchema, undefined, signal);
  }

  listLabs(signal?: AbortSignal) {
    return this.rest.get('/v1/labs', LabListSchema, undefined, signal);
  }

  getLab(lab: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/labs/${segment(lab)}`, LabDetailSchema, undefined, signal);
  }

  statement(lab: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/labs/${segment(lab)}/statement`, StatementSchema, undefined, signal);
  }

  startSession(request: StartSessionRequest, signal?: AbortSignal) {
    return this.rest.call({ method: 'POST', path: '/v1/sessions', body: request }, SessionSchema, signal);
  }

  /** The labs a student has passed, in any session: what their next labs depend on. */
  studentLabs(student: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/students/${segment(student)}/labs`, StudentLabsSchema, undefined, signal);
  }

  getSession(session: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/sessions/${segment(session)}`, SessionSchema, undefined, signal);
  }

  /** Stores a submission and queues its grading; resolves before grading ends (status `pendiente`). */
  submit(session: string, content: string, signal?: AbortSignal) {
    return this.rest.call(
      { method: 'POST', path: `/v1/sessions/${segment(session)}/submissions`, body: { content } },
      SubmissionSchema,
      signal,
    );
  }

  getSubmission(submission: string, signal?: AbortSignal) {
    return this.rest.get(`/v1/submissions/${segment(submission)}`, SubmissionSchema, undefined, signal);
  }

  /** The grading as it stands: the rules graded so far, and `passed` once it is over. */
  result(submission: string, signal?: AbortSignal) {
    return this.rest.get(
      `/v1/submissions/${segment(submission)}/result`,
      GradingResultSchema,
      undefined,
      signal,
    );
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
