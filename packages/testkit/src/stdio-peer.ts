import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/** One JSON-RPC message as it travels on the wire; kept loose on purpose (tests send malformed ones). */
export type WireMessage = Record<string, unknown> & {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

export interface PeerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from the moment the exit was requested (close/kill), or from spawn. */
  ms: number;
}

export type PeerEvent =
  | { direction: 'out'; raw: string; message?: WireMessage }
  | { direction: 'in'; raw: string; message?: WireMessage };

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * Drives a server process over stdio with raw JSON-RPC lines, nothing in between: what the tests send is
 * exactly what the server reads, and every stdout line is kept so a test can assert that each one is a
 * JSON-RPC message.
 */
export class StdioPeer {
  readonly child: ChildProcessWithoutNullStreams;
  /** Every stdout line, verbatim. */
  readonly stdoutLines: string[] = [];
  /** stdout lines that did not parse as a JSON object with `jsonrpc: "2.0"`. */
  readonly invalidStdoutLines: string[] = [];
  /** Parsed messages received from the server, in order. */
  readonly received: WireMessage[] = [];
  readonly exited: Promise<PeerExit>;
  private stderrText = '';
  private pending = '';
  private nextId = 1;
  private waiters: Array<{ test: (m: WireMessage) => boolean; resolve: (m: WireMessage) => void }> = [];
  private listeners: Array<(event: PeerEvent) => void> = [];
  private exitRequestedAt: number;

  static spawn(command: string, args: string[] = [], options: SpawnOptions = {}): StdioPeer {
    return new StdioPeer(
      spawn(command, args, {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
  }

  constructor(child: ChildProcessWithoutNullStreams) {
    this.child = child;
    this.exitRequestedAt = performance.now();
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr.on('data', (chunk: string) => {
      this.stderrText += chunk;
    });
    // A server that exits early closes stdin under our feet; writes then fail with EPIPE, which is the
    // test's business (it asserts on the exit), not an unhandled error.
    child.stdin.on('error', () => {});
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        resolve({ code, signal, ms: performance.now() - this.exitRequestedAt });
      });
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  onEvent(listener: (event: PeerEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Writes one line verbatim (a string) or a message serialised as one line. */
  send(message: WireMessage | string): void {
    const raw = typeof message === 'string' ? message : JSON.stringify(message);
    this.emit({ direction: 'out', raw, message: typeof message === 'string' ? tryParse(raw) : message });
    this.child.stdin.write(`${raw}\n`);
  }

  /** Writes raw bytes with no newline added (for partial lines and oversized payloads). */
  write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  /** Sends a request with a fresh id and resolves with the response carrying that id. */
  async request(method: string, params?: unknown, timeoutMs = 15_000): Promise<WireMessage> {
    const id = this.nextId++;
    const response = this.waitFor((m) => m.id === id && ('result' in m || 'error' in m), timeoutMs);
    this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return response;
  }

  /** Sends initialize then notifications/initialized, as a well-behaved client does. */
  async initialize(
    protocolVersion = '2025-06-18',
    capabilities: Record<string, unknown> = {},
  ): Promise<WireMessage> {
    const response = await this.request('initialize', {
      protocolVersion,
      capabilities,
      clientInfo: { name: 'testkit', version: '0.0.0' },
    });
    this.notify('notifications/initialized');
    return response;
  }

  /** Resolves with the first message (already received or to come) that passes the test. */
  waitFor(test: (m: WireMessage) => boolean, timeoutMs = 15_000): Promise<WireMessage> {
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.resolve !== done);
        reject(
          new Error(`no matching message within ${timeoutMs} ms; stderr:\n${this.stderrText.slice(-2000)}`),
        );
      }, timeoutMs);
      const done = (m: WireMessage) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.push({ test, resolve: done });
    });
  }

  /** Waits `ms` and returns what arrived meanwhile (to prove that nothing was answered). */
  async quietFor(ms: number): Promise<WireMessage[]> {
    const before = this.received.length;
    await new Promise((r) => setTimeout(r, ms));
    return this.received.slice(before);
  }

  /** Ends stdin (the client going away) and resolves when the process has exited. */
  async close(): Promise<PeerExit> {
    this.exitRequestedAt = performance.now();
    this.child.stdin.end();
    return this.exited;
  }

  async kill(signal: NodeJS.Signals = 'SIGTERM'): Promise<PeerExit> {
    this.exitRequestedAt = performance.now();
    this.child.kill(signal);
    return this.exited;
  }

  private onStdout(chunk: string): void {
    this.pending += chunk;
    let newline = this.pending.indexOf('\n');
    while (newline !== -1) {
      const line = this.pending.slice(0, newline);
      this.pending = this.pending.slice(newline + 1);
      this.onLine(line);
      newline = this.pending.indexOf('\n');
    }
  }

  private onLine(line: string): void {
    this.stdoutLines.push(line);
    const message = tryParse(line);
    if (message?.jsonrpc !== '2.0') {
      this.invalidStdoutLines.push(line);
      this.emit({ direction: 'in', raw: line });
      return;
    }
    this.received.push(message);
    this.emit({ direction: 'in', raw: line, message });
    for (const waiter of [...this.waiters]) {
      if (waiter.test(message)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(message);
      }
    }
  }

  private emit(event: PeerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

function tryParse(raw: string): WireMessage | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as WireMessage)
      : undefined;
  } catch {
    return undefined;
  }
}
