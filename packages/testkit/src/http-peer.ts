import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { PeerExit, WireMessage } from './stdio-peer.js';

/** One server-sent event as it came on the wire. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  /** `data` parsed as JSON-RPC, when it is JSON. */
  message?: WireMessage;
}

/** An HTTP answer of the MCP endpoint: JSON or SSE, with the JSON-RPC messages it carried. */
export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (a JSON answer or a JSON-RPC error body). */
  json?: unknown;
  /** Events of an SSE answer. */
  events: SseEvent[];
  /** JSON-RPC messages of the answer, from either form. */
  messages: WireMessage[];
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * A built server started with `--transport http --port 0`: resolves once it prints the URL it listens on.
 */
export class HttpServerProcess {
  private stderrText = '';
  readonly exited: Promise<PeerExit>;
  private stopRequestedAt = performance.now();

  private constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly url: string,
    stderrSoFar: string,
  ) {
    this.stderrText = stderrSoFar;
    child.stderr.on('data', (chunk: string) => {
      this.stderrText += chunk;
    });
    this.exited = new Promise((resolve) => {
      const done = () =>
        resolve({
          code: child.exitCode,
          signal: child.signalCode,
          ms: performance.now() - this.stopRequestedAt,
        });
      if (child.exitCode !== null || child.signalCode !== null) done();
      else child.once('exit', done);
    });
  }

  /** Spawns `node bin --transport http --port 0 ...args`; rejects if it exits or stays silent. */
  static start(
    bin: string,
    args: string[] = [],
    options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
  ): Promise<HttpServerProcess> {
    const child = spawn(process.execPath, [bin, '--transport', 'http', '--port', '0', ...args], {
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.setEncoding('utf8');
    child.stdout.setEncoding('utf8');
    let stderr = '';
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        child.stderr.off('data', onData);
        reject(new Error(`${why}; stderr:\n${stderr.slice(-2000)}`));
      };
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail('no "listening on" line');
      }, options.timeoutMs ?? 15_000);
      const onData = (chunk: string) => {
        stderr += chunk;
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (!match) return;
        clearTimeout(timer);
        child.stderr.off('data', onData);
        child.off('exit', onExit);
        resolve(new HttpServerProcess(child, match[1]!, stderr));
      };
      const onExit = (code: number | null) => fail(`the server exited with code ${code} before listening`);
      child.stderr.on('data', onData);
      child.once('exit', onExit);
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** The server's origin (`http://127.0.0.1:PORT`), for paths other than /mcp. */
  get origin(): string {
    return new URL(this.url).origin;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<PeerExit> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.stopRequestedAt = performance.now();
      this.child.kill(signal);
    }
    return this.exited;
  }
}

/** Parses an SSE body (complete) into events. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const event = parseBlock(block);
    if (event) events.push(event);
  }
  return events;
}

function parseBlock(block: string): SseEvent | undefined {
  if (block.trim() === '') return undefined;
  const event: SseEvent = { data: '' };
  const data: string[] = [];
  let fields = 0;
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    fields++;
    if (name === 'data') data.push(value);
    else if (name === 'id') event.id = value;
    else if (name === 'event') event.event = value;
  }
  if (fields === 0) return undefined;
  event.data = data.join('\n');
  try {
    if (event.data !== '') event.message = JSON.parse(event.data) as WireMessage;
  } catch {
    // Not JSON: kept as text.
  }
  return event;
}

/** Reads events of a live SSE stream as they arrive. */
export async function* readSse(body: Readable): AsyncGenerator<SseEvent> {
  let buffer = '';
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    let end = buffer.search(/\r?\n\r?\n/);
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(buffer.slice(end).startsWith('\r\n\r\n') ? end + 4 : end + 2);
      const event = parseBlock(block);
      if (event) yield event;
      end = buffer.search(/\r?\n\r?\n/);
    }
  }
}

/** One HTTP request to the MCP endpoint with raw control of headers and body; reads the whole answer. */
export async function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpReply> {
  const response = await request(url, {
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body,
  });
  const text = await response.body.text();
  const contentType = String(response.headers['content-type'] ?? '');
  const reply: HttpReply = {
    status: response.statusCode,
    headers: response.headers,
    text,
    events: [],
    messages: [],
  };
  if (contentType.includes('text/event-stream')) {
    reply.events = parseSse(text);
    reply.messages = reply.events.flatMap((e) => (e.message ? [e.message] : []));
  } else if (text !== '') {
    try {
      reply.json = JSON.parse(text);
      reply.messages = (Array.isArray(reply.json) ? reply.json : [reply.json]) as WireMessage[];
    } catch {
      // Not JSON: the test looks at `text`.
    }
  }
  return reply;
}

/** POSTs one JSON-RPC message (an object, or a raw string sent verbatim) as an MCP client would. */
export function postMessage(
  url: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<HttpReply> {
  return httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
}

/**
 * A raw MCP session over HTTP: `initialize` (and, by default, `notifications/initialized`), then requests
 * carrying the session id and protocol version headers.
 */
export class HttpSession {
  private nextId = 1;

  private constructor(
    readonly url: string,
    readonly sessionId: string,
    readonly protocolVersion: string,
    readonly initializeReply: HttpReply,
    private readonly extraHeaders: Record<string, string>,
  ) {}

  static async open(
    url: string,
    options: { protocolVersion?: string; headers?: Record<string, string>; initialized?: boolean } = {},
  ): Promise<HttpSession> {
    const protocolVersion = options.protocolVersion ?? '2025-11-25';
    const reply = await postMessage(
      url,
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion, capabilities: {}, clientInfo: { name: 'testkit-http', version: '0.0.0' } },
      },
      options.headers,
    );
    const sessionId = reply.headers['mcp-session-id'];
    if (reply.status !== 200 || typeof sessionId !== 'string') {
      throw new Error(`initialize failed with HTTP ${reply.status}: ${reply.text.slice(0, 500)}`);
    }
    const negotiated =
      (reply.messages.find((m) => m.id === 0)?.result as { protocolVersion?: string } | undefined)
        ?.protocolVersion ?? protocolVersion;
    const session = new HttpSession(url, sessionId, negotiated, reply, options.headers ?? {});
    if (options.initialized !== false) await session.notify('notifications/initialized');
    return session;
  }

  get headers(): Record<string, string> {
    return {
      'mcp-session-id': this.sessionId,
      'mcp-protocol-version': this.protocolVersion,
      ...this.extraHeaders,
    };
  }

  /** Sends a request; resolves with the HTTP answer and the response to it. */
  async request(
    method: string,
    params?: unknown,
  ): Promise<{ reply: HttpReply; response: WireMessage | undefined }> {
    const id = this.nextId++;
    const reply = await postMessage(
      this.url,
      { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
      this.headers,
    );
    return { reply, response: reply.messages.find((m) => m.id === id) };
  }

  notify(method: string, params?: unknown): Promise<HttpReply> {
    return postMessage(
      this.url,
      { jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) },
      this.headers,
    );
  }

  /** Ends the session (HTTP DELETE). */
  delete(): Promise<HttpReply> {
    return httpRequest(this.url, { method: 'DELETE', headers: this.headers });
  }
}
