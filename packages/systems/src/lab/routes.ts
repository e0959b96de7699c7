import type { LabApi } from '@code-cluster/shared/lab';
import { type Handlers, Reply } from '../http/router.js';
import { labCatalog } from './catalog.js';
import type { Sessions } from './sessions.js';

export const LAB_VERSION = '0.1.0';

/** Each endpoint of the lab suite's API (packages/shared/src/lab/api.ts) to its use case. */
export function labRoutes(sessions: Sessions): Handlers<LabApi> {
  return {
    health: () => ({ status: 'ok', system: 'lab', version: LAB_VERSION }),
    listLabs: () => ({ labs: labCatalog.list() }),
    getLab: ({ params }) => labCatalog.detail(params.lab),
    statement: ({ params }) => labCatalog.statement(params.lab),
    startSession: async ({ body, signal }) => new Reply(201, await sessions.start(body, signal)),
    studentLabs: ({ params }) => sessions.passedLabs(params.student),
    getSession: ({ params }) => sessions.get(params.session),
    submit: async ({ params, body }) => new Reply(202, await sessions.submit(params.session, body.content)),
    getSubmission: ({ params }) => sessions.submission(params.submission),
    result: ({ params }) => sessions.result(params.submission),
  };
}
