import { PROBLEM_CONTENT_TYPE, type RestResponse } from '@code-cluster/shared';

/** An RFC 9457 problem raised by a system handler; the router turns it into the response. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export function problemResponse(problem: HttpProblem): RestResponse {
  return {
    status: problem.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
    body: JSON.stringify({
      type: 'about:blank',
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      ...problem.extensions,
    }),
  };
}

export function jsonResponse(status: number, body: unknown): RestResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

export const notFound = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(404, 'Not Found', detail, extensions);
export const badRequest = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(400, 'Bad Request', detail, extensions);
export const unprocessable = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(422, 'Unprocessable Content', detail, extensions);
