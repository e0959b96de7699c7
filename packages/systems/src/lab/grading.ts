import type { Finding, RuleOutcome } from '@code-cluster/shared/lab';
import type { SchemaVerdict } from './handshake/json-schema.js';
import type { Overrun } from './sandbox.js';

/** What one rule concludes about a submission: findings (none: passed), or that it does not apply. */
export type RuleVerdict = Finding[] | 'no_aplica';

export interface RuleDefinition<C> {
  id: string;
  title: string;
  /** Spanish: what the rule checks and why. */
  description: string;
  check(context: C): RuleVerdict;
}

/** A lab: its texts, and how a submission is read once (`prepare`) and then judged rule by rule. */
export interface LabDefinition<C = unknown> {
  id: string;
  title: string;
  summary: string;
  format: 'transcripcion-jsonrpc' | 'definicion-de-herramienta';
  /** The statement, in markdown (Spanish). */
  statement: string;
  hints: readonly string[];
  /** May ask `tools` for what must not run on the server's thread (a student's regex). */
  prepare(content: string, tools: GradingTools): C | Promise<C>;
  rules: readonly RuleDefinition<C>[];
}

export interface GradedRule {
  rule: string;
  title: string;
  outcome: RuleOutcome;
  findings: Finding[];
}

export function outcomeOf(verdict: RuleVerdict): RuleOutcome {
  if (verdict === 'no_aplica') return 'no_aplica';
  return verdict.length === 0 ? 'superada' : 'fallida';
}

/** What a lab's `prepare` may use while the grading's budget lasts. */
export interface GradingTools {
  /** The grading's wall-clock budget, ms: what `GradingOverrun` messages quote. */
  readonly budgetMs: number;
  /** Checks tool arguments against a student-supplied JSON Schema off the server's thread. */
  validateSchema(schema: unknown, value: unknown): Promise<SchemaVerdict | Overrun>;
}

/**
 * The grading did not finish within its budget (or its sandbox died): the submission is marked as not
 * finished, with `message` (Spanish, for the student) saying what overran. Not retried: the same
 * submission would overrun again.
 */
export class GradingOverrun extends Error {
  override readonly name = 'GradingOverrun';
}

/** Spanish wording of how many seconds a budget is. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * Grades a submission one rule at a time, so the caller can store and report each rule as it is done.
 * A rule that throws is a bug of the grader, never the student's fault: it propagates; `GradingOverrun`
 * says the submission made the grader overrun its budget.
 */
export async function* gradeRules<C>(
  lab: LabDefinition<C>,
  content: string,
  tools: GradingTools,
): AsyncGenerator<GradedRule> {
  const context = await lab.prepare(content, tools);
  for (const rule of lab.rules) {
    const verdict = rule.check(context);
    yield {
      rule: rule.id,
      title: rule.title,
      outcome: outcomeOf(verdict),
      findings: verdict === 'no_aplica' ? [] : verdict,
    };
  }
}

/** Longest excerpt of a student's line kept with a finding. */
const EXCERPT_CHARS = 200;

export function excerpt(raw: string): string {
  const text = raw.trim();
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS - 1)}…` : text;
}

/**
 * A value the student wrote (a method name, an id), quoted for a Spanish explanation: JSON, short, with
 * `<` and `>` escaped so it cannot open or close the fence the MCP server puts around student content.
 */
export function quote(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return short.replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
}

/** Every rule of a submission at once, for callers that need no progress. */
export async function gradeAll<C>(
  lab: LabDefinition<C>,
  content: string,
  tools: GradingTools,
): Promise<GradedRule[]> {
  const rules: GradedRule[] = [];
  for await (const rule of gradeRules(lab, content, tools)) rules.push(rule);
  return rules;
}
