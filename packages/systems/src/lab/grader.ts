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

/** Grades submissions in the background, one at a time, storing each rule as it is done. */
export class Grader {
  private closed = false;
  private grading: string | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: LabStore,
    private readonly sandbox: GradingSandbox,
    private readonly options: GraderOptions,
  ) {}

  schedule(id: string): void {
    this.queue = this.queue.then(() => this.grade(id));
  }

  /** Gradings a previous process left unfinished (it stopped, or died mid-way) are picked up again. */
  resume(): void {
    for (const id of this.store.unfinished(this.options.now(), STALE_CLAIM_MS)) this.schedule(id);
  }

  /** Resolves when every grading queued so far has finished. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** A grading cut short is handed back, not left claimed until it goes stale. */
  close(): void {
    this.closed = true;
    if (this.grading) this.store.release(this.grading);
  }

  private async grade(id: string): Promise<void> {
    const { store, options } = this;
    if (this.closed || !store.claim(id, options.now(), STALE_CLAIM_MS)) return;
    const row = store.submission(id)!;
    if (row.attempts > MAX_ATTEMPTS) {
      store.abandon(
        id,
        `La corrección de esta entrega se interrumpió ${row.attempts - 1} veces sin terminar (el corrector ` +
          'se detuvo a mitad de ella) y no se vuelve a intentar. Revisa que no contenga esquemas, patrones o ' +
          'mensajes desmesurados y envíala de nuevo con enviar_entrega.',
        options.now(),
      );
      return;
    }
    this.grading = id;
    const budget = this.sandbox.budget(options.budgetMs);
    try {
      let position = 0;
      for await (const result of gradeRules(knownLab(row.lab), store.content(id) ?? '', budget)) {
        await pause(options.stepDelayMs);
        budget.extend(options.stepDelayMs);
        if (this.closed) return;
        if (budget.remainingMs() <= 0) {
          throw new GradingOverrun(
            `La corrección no terminó dentro de los ${seconds(options.budgetMs)} que tiene y se detuvo tras ` +
              `${position} de ${row.rules_total} reglas. Reduce la entrega a la sesión que pide el enunciado ` +
              'y vuelve a enviarla.',
          );
        }
        store.addRuleResult(id, position++, result);
      }
      store.finish(id, 'evaluada', options.now());
    } catch (error) {
      // Closing hands the grading back (see close); nothing of it is recorded.
      if (this.closed) return;
      if (error instanceof GradingOverrun) store.abandon(id, error.message, options.now());
      else {
        options.onError?.(error);
        store.finish(id, 'fallo_interno', options.now());
      }
    } finally {
      this.grading = undefined;
    }
  }
}

/** Yields to the event loop between rules even without a delay, so requests are served meanwhile. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}
