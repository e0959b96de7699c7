import type { Finding, RuleOutcome } from '@code-cluster/shared/lab';

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
  prepare(content: string): C;
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

/**
 * Grades a submission one rule at a time, so the caller can store and report each rule as it is done.
 * A rule that throws is a bug of the grader, never the student's fault: it propagates.
 */
export function* gradeRules<C>(lab: LabDefinition<C>, content: string): Generator<GradedRule> {
  const context = lab.prepare(content);
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
