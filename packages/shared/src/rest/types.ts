/** The wire shape of one REST exchange, the same whether it crosses a socket or stays in process. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | undefined;

export interface RestRequest {
  method: HttpMethod;
  /** Path below the system's base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** Serialised as JSON. */
  body?: unknown;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  /** The body as text, exactly as it would arrive over HTTP. */
  body: string;
}

/** How a client reaches a system: undici over HTTP, or a direct call into the embedded reference system. */
export interface RestTransport {
  request(request: RestRequest, signal?: AbortSignal): Promise<RestResponse>;
  close?(): Promise<void>;
}

/** A request as a system receives it (after routing-independent parsing). */
export interface IncomingRestRequest {
  method: HttpMethod;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  body: string | undefined;
  signal?: AbortSignal;
}

/** A system's whole REST API as one function: what both the HTTP server and the in-process transport call. */
export type RestHandler = (request: IncomingRestRequest) => Promise<RestResponse>;
