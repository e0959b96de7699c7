import type { z } from 'zod';
import type { HttpMethod, QueryValue, RestRequest } from './types.js';

type Schema = z.ZodType;
/** Marks a part the endpoint does not have. */
type None = undefined;

/**
 * One REST endpoint as data: what the client sends and the system's router checks, from the same
 * schemas. `path` names its parameters as `:name` (`/v1/topics/:topic/events`); `params`, `query` and
 * `body` are the zod schemas the system parses them with; `response` checks the answer on the client.
 */
export interface Endpoint<
  P extends Schema | None = Schema | None,
  Q extends Schema | None = Schema | None,
  B extends Schema | None = Schema | None,
  R extends Schema = Schema,
> {
  method: HttpMethod;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
}

export function endpoint<
  R extends Schema,
  P extends Schema | None = None,
  Q extends Schema | None = None,
  B extends Schema | None = None,
>(spec: {
  method: HttpMethod;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
}): Endpoint<P, Q, B, R> {
  return spec;
}

type Part<S, Key extends string> = S extends Schema ? { [K in Key]: z.input<S> } : { [K in Key]?: never };
type Optional<S, Key extends string> = S extends Schema
  ? { [K in Key]?: z.input<S> }
  : { [K in Key]?: never };

/** What a caller passes to send an endpoint: its params and body when it has them, its query if any. */
export type EndpointInput<E> =
  E extends Endpoint<infer P, infer Q, infer B, Schema>
    ? Part<P, 'params'> & Optional<Q, 'query'> & Part<B, 'body'>
    : never;

/** What the system answers, as the client reads it. */
export type EndpointOutput<E> =
  E extends Endpoint<Schema | None, Schema | None, Schema | None, infer R> ? z.output<R> : never;

/** The `:name` segments of a path, in order. */
export function pathNames(path: string): string[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((match) => match[1]!);
}

/** The wire request of one call: parameters substituted (one path segment each), query and body as given. */
export function toRestRequest(target: Endpoint, input: EndpointInput<Endpoint>): RestRequest {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = target.path.replace(/:([a-z_]+)/g, (_, name: string) =>
    encodeURIComponent(String(params[name])),
  );
  return {
    method: target.method,
    path,
    ...(input.query === undefined ? {} : { query: input.query as Record<string, QueryValue> }),
    ...(input.body === undefined ? {} : { body: input.body }),
  };
}
