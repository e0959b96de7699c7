import { type PeerEvent, type PeerExit, StdioPeer, type WireMessage } from './peer.js';
import type { Printer } from './render.js';
import type { ServerTarget } from './targets.js';

export interface SessionOptions {
  /** Print the server's stderr lines into the transcript. */
  showStderr?: boolean;
  /** How long a request may wait for its response. */
  requestTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** The server process went away (or never started) while the console was waiting on it. */
export class ServerGoneError extends Error {}

/**
 * One MCP server process and its labelled transcript: everything sent and received goes through the
 * printer as it happens. A host with several servers holds one Session per server.
 */
export class Session {
  readonly label: string;
  readonly peer: StdioPeer;
  /** Settles when the process is gone and its stdout fully read; rejects with why. */
  readonly gone: Promise<never>;
  private readonly printer: Printer;
  private readonly requestTimeoutMs: number;
  private readonly inboundWaiters = new Set<(event: PeerEvent) => void>();
  private stderrPending = '';
  private goneReason: string | undefined;
  private spawnFailed = false;
  private nextId = 1;

  static start(target: ServerTarget, printer: Printer, options: SessionOptions = {}): Session {
    const peer = StdioPeer.spawn(target.command, target.args, options.env ? { env: options.env } : {});
    return new Session(target.label, peer, printer, options);
  }

  constructor(label: string, peer: StdioPeer, printer: Printer, options: SessionOptions = {}) {
    this.label = label;
    this.peer = peer;
    this.printer = printer;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    peer.onEvent((event) => {
      printer.event(label, event);
      if (event.direction === 'in') {
        for (const waiter of [...this.inboundWaiters]) waiter(event);
      }
    });
    if (options.showStderr) peer.child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
    this.gone = new Promise<never>((_, reject) => {
      // 'close' (not 'exit') fires once stdout is drained, so a response written just before exiting
      // is still seen before the session counts as gone.
      peer.child.on('close', (code, signal) => {
        this.flushStderr();
        this.goneReason ??= `${label} exited (${signal ?? `code ${code}`})`;
        reject(new ServerGoneError(this.goneReason));
      });
      peer.child.on('error', (error) => {
        if (peer.child.pid === undefined) this.spawnFailed = true;
        this.goneReason ??= `${label} could not be started: ${error.message}`;
        reject(new ServerGoneError(this.goneReason));
      });
    });
    this.gone.catch(() => {});
  }

  /** The process could not be spawned at all (no such command, not executable). */
  get failedToStart(): boolean {
    return this.spawnFailed;
  }

  /** Why the session ended, once it has. */
  get ended(): string | undefined {
    return this.goneReason;
  }

  /**
   * Sends a request and resolves with its response (result or error alike). Rejects when no response
   * comes in time or the server goes away first.
   */
  request(method: string, params?: unknown, timeoutMs = this.requestTimeoutMs): Promise<WireMessage> {
    if (this.goneReason) return Promise.reject(new ServerGoneError(this.goneReason));
    // Own ids and timers (not StdioPeer.request): a timer left behind would keep the console alive.
    const id = this.nextId++;
    const response = new Promise<WireMessage>((resolve, reject) => {
      const done = (event: PeerEvent) => {
        const m = event.message;
        if (m && m.id === id && ('result' in m || 'error' in m)) {
          clearTimeout(timer);
          this.inboundWaiters.delete(done);
          resolve(m);
        }
      };
      const timer = setTimeout(() => {
        this.inboundWaiters.delete(done);
        reject(new Error(`${this.label} sent no response to ${method} (id ${id}) within ${timeoutMs} ms`));
      }, timeoutMs);
      this.inboundWaiters.add(done);
      this.gone.catch(() => {
        clearTimeout(timer);
        this.inboundWaiters.delete(done);
      });
    });
    this.peer.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    return Promise.race([response, this.gone]);
  }

  notify(method: string, params?: unknown): void {
    if (!this.goneReason) this.peer.notify(method, params);
  }

  /** Writes one line verbatim, even when it is not JSON (to provoke parse errors). */
  sendRaw(line: string): void {
    if (!this.goneReason) this.peer.send(line);
  }

  /** Resolves with the next line the server writes to stdout, or undefined if none arrives in time. */
  nextInbound(timeoutMs: number): Promise<PeerEvent | undefined> {
    return new Promise((resolve) => {
      const done = (event: PeerEvent | undefined) => {
        clearTimeout(timer);
        this.inboundWaiters.delete(done);
        resolve(event);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      this.inboundWaiters.add(done);
      this.gone.catch(() => done(undefined));
    });
  }

  /**
   * Resolves with the first message the server writes from now on that passes the test, or undefined if
   * none arrives in time (or the server goes away first). Start waiting before causing the message.
   */
  waitForInbound(
    test: (message: WireMessage) => boolean,
    timeoutMs: number,
  ): Promise<WireMessage | undefined> {
    return new Promise((resolve) => {
      const finish = (message: WireMessage | undefined) => {
        clearTimeout(timer);
        this.inboundWaiters.delete(done);
        resolve(message);
      };
      const done = (event: PeerEvent) => {
        if (event.message && test(event.message)) finish(event.message);
      };
      const timer = setTimeout(() => finish(undefined), timeoutMs);
      this.inboundWaiters.add(done);
      this.gone.catch(() => finish(undefined));
    });
  }

  /**
   * Closes the server's stdin, as a client going away does, and waits for the process to end. A server
   * still running after `graceMs` is killed; `exit.code` is then null and `exit.signal` says so.
   */
  async close(graceMs = 5_000): Promise<PeerExit> {
    if (this.spawnFailed) return { code: null, signal: null, ms: 0 };
    if (this.goneReason) return this.peer.exited;
    const timer = setTimeout(() => this.peer.child.kill('SIGKILL'), graceMs);
    const exit = await this.peer.close();
    clearTimeout(timer);
    await this.gone.catch(() => {});
    return exit;
  }

  private onStderr(chunk: string): void {
    this.stderrPending += chunk;
    const lines = this.stderrPending.split('\n');
    this.stderrPending = lines.pop() ?? '';
    for (const line of lines) this.printer.stderr(this.label, line);
  }

  private flushStderr(): void {
    if (this.stderrPending) this.printer.stderr(this.label, this.stderrPending);
    this.stderrPending = '';
  }
}
