export { HttpProblem, jsonResponse, problemResponse } from './http/problem.js';
export { createRouter, parseQuery, type Route, type RouteContext } from './http/router.js';
export { type RunningService, type ServeOptions, serveHttp } from './http/serve.js';
export { findStation, STATIONS, type StationReference } from './reference/stations.js';
export { SYSTEMS, type SystemName } from './registry.js';
