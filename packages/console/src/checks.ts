import type { OutStream } from './io.js';
import type { Check, Printer } from './render.js';

/** The expectations of one scripted run, printed as they are recorded and summed up at the end. */
export class Checklist {
  readonly checks: Check[] = [];
  private readonly printer: Printer;

  constructor(printer: Printer) {
    this.printer = printer;
  }

  /** Records an expectation and prints whether it held. */
  expect(name: string, ok: boolean, detail = ''): Check {
    const check = { name, ok, detail };
    this.checks.push(check);
    this.printer.check(check);
    return check;
  }

  /**
   * Prints the summary (in --json mode the failures go to stderr instead, keeping stdout pure JSON) and
   * returns the exit code: 0 only when there were expectations and every one held.
   */
  finish(stderr: OutStream): number {
    this.printer.summary(this.checks);
    const failed = this.checks.filter((c) => !c.ok);
    if (this.printer.json) {
      for (const check of failed) stderr.write(`✗ ${check.name} — ${check.detail}\n`);
    }
    return this.checks.length > 0 && failed.length === 0 ? 0 : 1;
  }
}
