import type { HttpMethod, IncomingRestRequest, RestHandler, RestResponse } from '@code-cluster/shared';
import type { z } from 'zod';
import { StorageError } from '../storage/errors.js';
import { badRequest, HttpProblem, jsonResponse, problemResponse } from './problem.js';

export interface RouteContext {
  params: Record<string, string>;
  request: IncomingRestRequest;
}

export interface Route {
  method: HttpMethod;
  /** `/v1/satellites/:id/passes`: `:name` segments become `params.name`. */
  pattern: string;
  /** Returns the JSON body of a 200, or a full response; throws HttpProblem for errors. */
  handle(context: RouteContext): Promise<unknown> | unknown;
}

interface CompiledRoute extends Route {
  regex: RegExp;
  names: string[];
}

/** A system's REST API as one RestHandler: routing, problem+json errors, no framework. */
export function createRouter(routes: readonly Route[], onError?: (error: unknown) => void): RestHandler {
  const compiled: CompiledRoute[] = routes.map((route) => {
    const names: string[] = [];
    const source = route.pattern.replace(/:([a-z_]+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    return { ...route, regex: new RegExp(`^${source}/?$`), names };
  });

  return async (request: IncomingRestRequest): Promise<RestResponse> => {
    try {
      let pathMatched = false;
      for (const route of compiled) {
        const match = route.regex.exec(request.path);
        if (!match) continue;
        pathMatched = true;
        if (route.method !== request.method) continue;
        const params = Object.fromEntries(
          route.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]),
        );
        const body = await route.handle({ params, request });
        return isResponse(body) ? body : jsonResponse(200, body);
      }
      throw pathMatched
        ? new HttpProblem(405, 'Method Not Allowed', `${request.method} no está permitido en ${request.path}`)
        : new HttpProblem(404, 'Not Found', `No existe el recurso ${request.path}`);
    } catch (error) {
      if (error instanceof HttpProblem) return problemResponse(error);
      onError?.(error);
      // The operator gets the error (above); the model, what is wrong in words it can act on.
      if (error instanceof StorageError) {
        return problemResponse(
          new HttpProblem(507, 'Insufficient Storage', error.message, { problem: error.problem }),
        );
      }
      return problemResponse(new HttpProblem(500, 'Internal Server Error', 'Error interno del sistema'));
    }
  };
}

function isResponse(value: unknown): value is RestResponse {
  return (
    typeof value === 'object' && value !== null && 'status' in value && 'body' in value && 'headers' in value
  );
}

/** Checks a query string against a zod schema; a violation is a 400 naming the parameter and value. */
export function parseQuery<T extends z.ZodType>(query: URLSearchParams, schema: T): z.output<T> {
  const parsed = schema.safeParse(Object.fromEntries(query), { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.join('.') || 'query';
  const value = 'input' in issue ? JSON.stringify(issue.input) : 'nada';
  throw badRequest(`Parámetro '${name}' inválido (${issue.message}); recibido: ${value}`, {
    parameter: name,
  });
}
