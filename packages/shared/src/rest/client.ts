import type { z } from 'zod';
import { type Endpoint, type EndpointInput, type EndpointOutput, toRestRequest } from './endpoint.js';
import { isAbortError, SystemError } from './errors.js';
import { ProblemSchema } from './problem.js';
import type { RestRequest, RestResponse, RestTransport } from './types.js';

export interface RestClientOptions {
  /** The system's name as the model reads it in messages ("gemelo satelital"). */
  systemName: string;
  /** Retries after the first attempt, for idempotent requests only. */
  retries?: number;
  /** First backoff delay; doubles each retry, with jitter. */
  backoffMs?: number;
}

/**
 * The typed client core every system client builds on: zod-checked responses, RFC 9457 problems turned
 * into domain errors that quote the system's `detail`, 5xx and network failures into "system unavailable",
 * bounded retries with backoff for GETs, and the caller's AbortSignal passed all the way down.
 */
export class RestClient {
  private readonly retries: number;
  private readonly backoffMs: number;

  constructor(
    private readonly transport: RestTransport,
    private readonly options: RestClientOptions,
  ) {
    this.retries = options.retries ?? 2;
    this.backoffMs = options.backoffMs ?? 100;
  }

  get<T extends z.ZodType>(
    path: string,
    schema: T,
    query?: RestRequest['query'],
    signal?: AbortSignal,
  ): Promise<z.output<T>> {
    return this.call({ method: 'GET', path, query }, schema, signal);
  }

  /** Calls one endpoint of the system's API (see endpoint.ts) and checks the answer with its schema. */
  send<E extends Endpoint>(
    target: E,
    input: EndpointInput<E>,
    signal?: AbortSignal,
  ): Promise<EndpointOutput<E>> {
    const request = toRestRequest(target, input as EndpointInput<Endpoint>);
    return this.call(request, target.response, signal) as Promise<EndpointOutput<E>>;
  }

  async call<T extends z.ZodType>(
    request: RestRequest,
    schema: T,
    signal?: AbortSignal,
  ): Promise<z.output<T>> {
    const response = await this.exchange(request, signal);
    const body = parseJson(response.body);
    if (response.status >= 200 && response.status < 300) {
      const parsed = schema.safeParse(body);
      if (parsed.success) return parsed.data;
      throw new SystemError(
        `El ${this.options.systemName} respondió con datos que no cumplen su contrato; avisa al operador.`,
        'contract',
        response.status,
      );
    }
    const problem = ProblemSchema.safeParse(body);
    const detail = problem.success ? (problem.data.detail ?? problem.data.title) : `HTTP ${response.status}`;
    throw new SystemError(detail, 'problem', response.status, problem.success ? problem.data : undefined);
  }

  close(): Promise<void> {
    return this.transport.close?.() ?? Promise.resolve();
  }

  /** One logical request: retried on 5xx and network failures when idempotent, never past the signal. */
  private async exchange(request: RestRequest, signal?: AbortSignal): Promise<RestResponse> {
    const attempts = request.method === 'GET' ? this.retries + 1 : 1;
    let failure = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      signal?.throwIfAborted();
      try {
        const response = await this.transport.request(request, signal);
        // 507: the system cannot store (disk full, data dir not writable); retrying cannot help, and its
        // problem says why in words the model can pass on.
        if (response.status < 500 || response.status === 507) return response;
        failure = `HTTP ${response.status}`;
      } catch (error) {
        if (isAbortError(error) || signal?.aborted) throw signal?.reason ?? error;
        // An embedded system that failed in words (its storage cannot open): said as it is, not retried.
        if ((error as { domain?: unknown }).domain === true) throw error;
        failure = error instanceof Error ? error.message : String(error);
      }
      if (attempt < attempts)
        await sleep(this.backoffMs * 2 ** (attempt - 1) * (0.5 + Math.random()), signal);
    }
    throw new SystemError(
      `El ${this.options.systemName} no está disponible ahora (${failure}). Vuelve a intentarlo en unos minutos.`,
      'unavailable',
    );
  }
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
