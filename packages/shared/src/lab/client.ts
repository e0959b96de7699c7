import { RestClient, type RestClientOptions } from '../rest/client.js';
import type { RestTransport } from '../rest/types.js';
import { labApi } from './api.js';
import type { StartSessionRequest } from './schemas.js';

/** Typed client of the lab suite's REST API (packages/shared/src/lab/api.ts). */
export class LabClient {
  private readonly rest: RestClient;

  constructor(transport: RestTransport, options: Partial<RestClientOptions> = {}) {
    this.rest = new RestClient(transport, { systemName: 'sistema de laboratorios', ...options });
  }

  health(signal?: AbortSignal) {
    return this.rest.send(labApi.health, {}, signal);
  }

  listLabs(signal?: AbortSignal) {
    return this.rest.send(labApi.listLabs, {}, signal);
  }

  getLab(lab: string, signal?: AbortSignal) {
    return this.rest.send(labApi.getLab, { params: { lab } }, signal);
  }

  statement(lab: string, signal?: AbortSignal) {
    return this.rest.send(labApi.statement, { params: { lab } }, signal);
  }

  startSession(request: StartSessionRequest, signal?: AbortSignal) {
    return this.rest.send(labApi.startSession, { body: request }, signal);
  }

  /** The labs a student has passed, in any session: what their next labs depend on. */
  studentLabs(student: string, signal?: AbortSignal) {
    return this.rest.send(labApi.studentLabs, { params: { student } }, signal);
  }

  getSession(session: string, signal?: AbortSignal) {
    return this.rest.send(labApi.getSession, { params: { session } }, signal);
  }

  /** Stores a submission and queues its grading; resolves before grading ends (status `pendiente`). */
  submit(session: string, content: string, signal?: AbortSignal) {
    return this.rest.send(labApi.submit, { params: { session }, body: { content } }, signal);
  }

  getSubmission(submission: string, signal?: AbortSignal) {
    return this.rest.send(labApi.getSubmission, { params: { submission } }, signal);
  }

  /** The grading as it stands: the rules graded so far, and `passed` once it is over. */
  result(submission: string, signal?: AbortSignal) {
    return this.rest.send(labApi.result, { params: { submission } }, signal);
  }

  close(): Promise<void> {
    return this.rest.close();
  }
}
