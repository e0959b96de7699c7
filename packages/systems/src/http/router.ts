import {
  type Endpoint,
  type EndpointOutput,
  type IncomingRestRequest,
  pathNames,
  type RestHandler,
  type RestResponse,
} from '@code-cluster/shared';
import type { z } from 'zod';
import es from 'zod/v4/locales/es.js';
import { Refusal, type RefusalKind } from '../refusal.js';
import { StorageError } from '../storage/errors.js';
import { badRequest, HttpProblem, jsonResponse, problemResponse } from './problem.js';

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a handler receives: the endpoint's path, query and body, each already parsed by its own schema. */
export interface Call<E extends Endpoint> {
  params: E extends Endpoint<infer P> ? Parsed<P> : never;
  query: E extends Endpoint<z.ZodType | undefined, infer Q> ? Parsed<Q> : never;
  body: E extends Endpoint<z.ZodType | undefined, z.ZodType | undefined, infer B> ? Parsed<B> : never;
  signal?: AbortSignal;
}

/** A status other than 200 for a successful answer (201 created, 202 accepted). */
export class Reply<T> {
  constructor(
    readonly status: number,
    readonly body: T,
  ) {}
}

export type Handler<E extends Endpoint> = (
  call: Call<E>,
) => EndpointOutput<E> | Reply<EndpointOutput<E>> | Promise<EndpointOutput<E> | Reply<EndpointOutput<E>>>;

/** One handler per endpoint of the API: leaving one out does not compile. */
export type Handlers<Api extends Record<string, Endpoint>> = { [K in keyof Api]: Handler<Api[K]> };

/**
 * A check of the raw request that runs before its endpoint's schemas (a credential in the body): what it
 * throws is the answer, so a request without the right to act learns nothing of what else is wrong.
 */
export type Guard = (request: IncomingRestRequest) => void;

/**
 * A system's REST API served from its declaration: each request is parsed with its endpoint's schemas
 * before its handler runs. The one status policy of every system (see docs/architecture.md):
 * a request that breaks its endpoint's schema is 400, except a text of the body over its length bound, 413;
 * a handler's Refusal is 400/404/409/422/413/503 by its kind; a StorageError 507; anything else 500.
 */
export function routes<Api extends Record<string, Endpoint>>(
  api: Api,
  handlers: Handlers<Api>,
  onError?: (error: unknown) => void,
  guards: { [K in keyof Api]?: Guard } = {},
): RestHandler {
  const compiled = Object.entries(api).map(([name, target]) => ({
    name,
    target,
    regex: new RegExp(`^${target.path.replace(/:([a-z_]+)/g, '([^/]+)')}/?$`),
    names: pathNames(target.path),
  }));

  const answer = async (request: IncomingRestRequest): Promise<RestResponse> => {
    let pathMatched = false;
    for (const { name, target, regex, names } of compiled) {
      const match = regex.exec(request.path);
      if (!match) continue;
      pathMatched = true;
      if (target.method !== request.method) continue;
      guards[name]?.(request);
      const params = Object.fromEntries(names.map((key, i) => [key, decodeURIComponent(match[i + 1]!)]));
      const call: Call<Endpoint> = {
        params: parsePart('params', target.params, params),
        query: parsePart('query', target.query, Object.fromEntries(request.query)),
        body: parsePart('body', target.body, readJson(target, request.body)),
        ...(request.signal ? { signal: request.signal } : {}),
      };
      const result = await (handlers[name] as Handler<Endpoint>)(call);
      return result instanceof Reply ? jsonResponse(result.status, result.body) : jsonResponse(200, result);
    }
    throw pathMatched
      ? new HttpProblem(405, 'Method Not Allowed', `${request.method} no está permitido en ${request.path}`)
      : new HttpProblem(404, 'Not Found', `No existe el recurso ${request.path}`);
  };

  return async (request) => {
    try {
      return await answer(request);
    } catch (error) {
      return errorResponse(error, onError);
    }
  };
}

function errorResponse(error: unknown, onError?: (error: unknown) => void): RestResponse {
  if (error instanceof HttpProblem) return problemResponse(error);
  if (error instanceof Refusal) return problemResponse(refusalProblem(error));
  onError?.(error);
  // The operator gets the error (above); the model, what is wrong in words it can act on.
  if (error instanceof StorageError) {
    return problemResponse(
      new HttpProblem(507, 'Insufficient Storage', error.message, { problem: error.problem }),
    );
  }
  return problemResponse(new HttpProblem(500, 'Internal Server Error', 'Error interno del sistema'));
}

const WHERE = { params: 'Parámetro de ruta', query: 'Parámetro', body: 'Campo' } as const;
// Per parse, not global: the MCP half embeds these systems and keeps its own zod messages. Imported by
// file: the app bundles keep only zod's English of its namespace (scripts/build-app.mjs).
const spanish = es().localeError;

function parsePart<S extends z.ZodType | undefined>(
  part: keyof typeof WHERE,
  schema: S,
  value: unknown,
): Parsed<S> {
  if (schema === undefined) return undefined as Parsed<S>;
  const parsed = schema.safeParse(value, { reportInput: true, error: spanish });
  if (parsed.success) return parsed.data as Parsed<S>;
  const issue = parsed.error.issues[0]!;
  const field =
    issue.code === 'unrecognized_keys'
      ? issue.keys.join(', ')
      : issue.path.join('.') || WHERE[part].toLowerCase();
  const received = 'input' in issue ? ` Recibido: ${shown(issue.input)}.` : '';
  const detail = `${WHERE[part]} '${field}' inválido: ${issue.message}.${received}`;
  const bound =
    'maximum' in issue ? { maximum: issue.maximum } : 'minimum' in issue ? { minimum: issue.minimum } : {};
  const extensions = { [part === 'body' ? 'field' : 'parameter']: field, ...bound };
  const tooBig = part === 'body' && issue.code === 'too_big' && issue.origin === 'string';
  throw tooBig
    ? new HttpProblem(413, 'Content Too Large', detail, extensions)
    : badRequest(detail, extensions);
}

function readJson(target: Endpoint, body: string | undefined): unknown {
  if (target.body === undefined || body === undefined) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest('El cuerpo no es JSON válido.');
  }
}

/** A value as the model reads it back: JSON, cut short so a 64 KiB text does not come back whole. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nada';
  return text.length > 120 ? `${text.slice(0, 120)}… (${text.length} caracteres)` : text;
}

const REFUSAL_STATUS: Record<RefusalKind, [number, string]> = {
  invalid: [400, 'Bad Request'],
  not_found: [404, 'Not Found'],
  conflict: [409, 'Conflict'],
  unprocessable: [422, 'Unprocessable Content'],
  too_large: [413, 'Content Too Large'],
  unavailable: [503, 'Service Unavailable'],
};

function refusalProblem(refusal: Refusal): HttpProblem {
  const [status, title] = REFUSAL_STATUS[refusal.kind];
  return new HttpProblem(status, title, refusal.message, refusal.details);
}
