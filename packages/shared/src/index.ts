export { RestClient, type RestClientOptions } from './rest/client.js';
export {
  type Endpoint,
  type EndpointInput,
  type EndpointOutput,
  endpoint,
  pathNames,
  toRestRequest,
} from './rest/endpoint.js';
export { isAbortError, SystemError } from './rest/errors.js';
export { inProcessTransport, toSearchParams } from './rest/in-process.js';
export { PROBLEM_CONTENT_TYPE, type Problem, ProblemSchema } from './rest/problem.js';
export { withoutPassword } from './rest/redact.js';
export type {
  HttpMethod,
  IncomingRestRequest,
  QueryValue,
  RestHandler,
  RestRequest,
  RestResponse,
  RestTransport,
} from './rest/types.js';
