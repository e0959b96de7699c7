import { knownLab } from './catalog.js';
import { GradingOverrun, gradeRules, seconds } from './grading.js';
import type { GradingSandbox } from './sandbox.js';
import type { LabStore } from './store.js';

export interface GraderOptions {
  now: () => number;
  /** Pause between two rules, ms: lets a client watch the progress (demos, tests). */
  stepDelayMs: number;
  /** Wall-clock budget of one grading, ms (pauses excluded). */
  budgetMs: number;
  onError?: ((error: unknown) => void) | undefined;
}

/** A grading claimed longer ago than this belongs to a process that died; another one takes it over. */
const STALE_CLAIM_MS = 60_000;
/**
 * Graders a submission may take down (the process died mid-grading, so it never gave its turn back)
 * before it is marked as not finished instead of being graded again on every restart.
 */
const MAX_ATTEMPTS = 3;

/** Thrown inside a grading when the grader stops: the grading is handed back, nothing of it recorded. */
const STOPPED = Symbol('stopped');

/**
 * Grades submissions in the background, one at a time, storing each rule as it is done. Engine-agnostic:
 * which grader of which process or replica grades a submission is settled by the store's `claim`.
 */
export class Grader {
  private closed = false;
  private queue: Promise<void> = Promise.resolve();
  /** Cuts the current pause between two rules short when the grader stops. */
  private wake: (() => void) | undefined;

  constructor(
    private readonly store: LabStore,
    private readonly sandbox: GradingSandbox,
    private readonly options: GraderOptions,
  ) {}

  schedule(id: string): void {
    this.enqueue(() => this.grade(id));
  }

  /** Gradings a previous process left unfinished (it stopped, or died mid-way) are picked up again. */
  resume(): void {
    this.enqueue(async () => {
      for (const id of await this.store.unfinished(this.options.now(), STALE_CLAIM_MS)) this.schedule(id);
    });
  }

  /** Resolves when every grading queued so far (and every one those queued) has finished. */
  async idle(): Promise<void> {
    for (let seen = this.queue; ; seen = this.queue) {
      await seen;
      if (seen === this.queue) return;
    }
  }

  /**
   * Stops grading: the grading in progress hands its submission back (not left claimed until it goes
   * stale) and the queued ones are left for the next process. Resolves once that is done.
   */
  close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    return this.idle();
  }

  /** A step of the queue that fails (the store is unreachable) is reported, and the queue goes on. */
  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: unknown) => this.options.onError?.(error));
  }

  private stopIfClosed(): void {
    if (this.closed) throw STOPPED;
  }

  private async grade(id: string): Promise<void> {
    const { store, options } = this;
    if (this.closed || !(await store.claim(id, options.now(), STALE_CLAIM_MS))) return;
    try {
      this.stopIfClosed();
      const row = (await store.submission(id))!;
      this.stopIfClosed();
      if (row.attempts > MAX_ATTEMPTS) {
        await store.abandon(
          id,
          `La corrección de esta entrega se interrumpió ${row.attempts - 1} veces sin terminar (el corrector ` +
            'se detuvo a mitad de ella) y no se vuelve a intentar. Revisa que no contenga esquemas, patrones o ' +
            'mensajes desmesurados y envíala de nuevo con enviar_entrega.',
          options.now(),
        );
        return;
      }
      const content = (await store.content(id)) ?? '';
      this.stopIfClosed();
      const budget = this.sandbox.budget(options.budgetMs);
      let position = 0;
      for await (const result of gradeRules(knownLab(row.lab), content, budget)) {
        this.stopIfClosed();
        await this.pause(options.stepDelayMs);
        budget.extend(options.stepDelayMs);
        this.stopIfClosed();
        if (budget.remainingMs() <= 0) {
          throw new GradingOverrun(
            `La corrección no terminó dentro de los ${seconds(options.budgetMs)} que tiene y se detuvo tras ` +
              `${position} de ${row.rules_total} reglas. Reduce la entrega a la sesión que pide el enunciado ` +
              'y vuelve a enviarla.',
          );
        }
        await store.addRuleResult(id, position++, result);
      }
      this.stopIfClosed();
      await store.finish(id, 'evaluada', options.now());
    } catch (error) {
      // Closing hands the grading back (a sandbox killed by the close lands here too): nothing is recorded.
      if (this.closed) return store.release(id);
      if (error instanceof GradingOverrun) await store.abandon(id, error.message, options.now());
      else {
        options.onError?.(error);
        await store.finish(id, 'fallo_interno', options.now());
      }
    }
  }

  /** Yields to the event loop between rules even without a delay, so requests are served meanwhile. */
  private pause(ms: number): Promise<void> {
    if (ms <= 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
