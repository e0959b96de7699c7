export { HttpProblem, jsonResponse, problemResponse } from './http/problem.js';
export {
  type Call,
  type Guard,
  type Handler,
  type Handlers,
  Reply,
  routes,
} from './http/router.js';
export { type RunningService, type ServeOptions, serveHttp } from './http/serve.js';
export { findStation, STATIONS, type StationReference } from './reference/stations.js';
export { Refusal, type RefusalKind, refuse } from './refusal.js';
export { SYSTEMS, type SystemName } from './registry.js';
export { isoUtc } from './time.js';
