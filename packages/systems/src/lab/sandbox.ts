import { Worker } from 'node:worker_threads';
import { type GradingTools, quote } from './grading.js';
import { type SchemaVerdict, schemaValidator } from './handshake/json-schema.js';

/** One grading's wall-clock budget: the tools its lab may use, and what is left of it. */
export interface GradingBudget extends GradingTools {
  remainingMs(): number;
  /** Moves the deadline on by `ms`: pauses the system takes on purpose (stepDelayMs) are not spent work. */
  extend(ms: number): void;
}

/** Why the sandbox gave up on a check: out of time, out of memory, or its worker died some other way. */
export type Overrun = { kind: 'overrun'; cause: 'tiempo' | 'memoria' | 'fallo' };

export interface SandboxOptions {
  /** Heap of the worker, MiB: a schema check that needs more is stopped, not the server. */
  memoryMb?: number;
}

// The worker's whole program. `eval` code, not a module file: a bundled server is one file with nothing
// to point a Worker at, and this text is the same in the bundle, in dist/ and under the test runner.
const PROGRAM = `'use strict';
const { parentPort } = require('node:worker_threads');
const validate = (${schemaValidator.toString()})(${quote.toString()});
parentPort.on('message', ({ id, schema, value }) => {
  let verdict;
  try {
    verdict = validate(schema, value);
  } catch (error) {
    // A schema too deep for the stack: the grader cannot judge that call, which is not the student's fault.
    verdict = { kind: 'unknown', keyword: '(esquema demasiado anidado)' };
  }
  parentPort.postMessage({ id, verdict });
});`;

interface Pending {
  resolve(verdict: SchemaVerdict | Overrun): void;
  timer: NodeJS.Timeout;
}

/**
 * Where the grader runs what a student controls and the server must not: a JSON Schema check with the
 * student's `pattern`s (a regex like `^(a+)+$` backtracks for minutes on 40 characters, and V8 cannot
 * stop a regex from the same thread). The check runs in a worker thread with a deadline and a heap
 * limit; at the deadline the worker is terminated (V8 interrupts even a running regex) and a fresh one
 * starts with the next check. The server's thread never runs a student's regex.
 */
export class GradingSandbox {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SandboxOptions = {}) {}

  /** Checks `value` against `schema` within `timeoutMs`; never rejects. */
  validate(schema: unknown, value: unknown, timeoutMs: number): Promise<SchemaVerdict | Overrun> {
    if (this.closed || timeoutMs <= 0) return Promise.resolve({ kind: 'overrun', cause: 'tiempo' });
    const worker = this.current();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.kill(worker, 'tiempo'), timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, timer });
      try {
        worker.postMessage({ id, schema, value });
      } catch {
        // Not cloneable (too deep to serialize): the call cannot be judged.
        this.settle(id, { kind: 'unknown', keyword: '(esquema demasiado anidado)' });
      }
    });
  }

  /** Tools for one grading that may spend at most `budgetMs` of wall-clock time from now. */
  budget(budgetMs: number): GradingBudget {
    let deadline = performance.now() + budgetMs;
    const remainingMs = () => deadline - performance.now();
    return {
      budgetMs,
      remainingMs,
      extend: (ms) => {
        deadline += ms;
      },
      validateSchema: (schema, value) => this.validate(schema, value, remainingMs()),
    };
  }

  close(): void {
    this.closed = true;
    if (this.worker) this.kill(this.worker, 'fallo');
  }

  private current(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(PROGRAM, {
      eval: true,
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.memoryMb ?? 64,
        maxYoungGenerationSizeMb: 8,
        stackSizeMb: 4,
      },
      // The worker needs no settings and gets no credentials by accident.
      env: {},
      stdout: true,
      stderr: true,
    });
    worker.on('message', ({ id, verdict }: { id: number; verdict: SchemaVerdict }) =>
      this.settle(id, verdict),
    );
    worker.on('error', (error: Error & { code?: string }) =>
      this.kill(worker, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memoria' : 'fallo'),
    );
    worker.on('exit', () => this.kill(worker, 'fallo'));
    // A server may exit while the worker idles.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Ends a worker and every check it still owed; the next check starts a new one. */
  private kill(worker: Worker, cause: Overrun['cause']): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    void worker.terminate();
    for (const id of [...this.pending.keys()]) this.settle(id, { kind: 'overrun', cause });
  }

  private settle(id: number, verdict: SchemaVerdict | Overrun): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.resolve(verdict);
  }
}
