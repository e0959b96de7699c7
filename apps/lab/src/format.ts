import { fenceUntrusted } from '@code-cluster/mcp-kit';
import type { Finding, GradingResult, RuleOutcome } from '@code-cluster/shared/lab';

/** Spanish text of lab-mcp's answers. */

export const OUTCOME_TEXT: Record<RuleOutcome, string> = {
  superada: 'superada',
  fallida: 'FALLIDA',
  no_aplica: 'no aplica',
};

/** One finding per line: a student's newlines cannot make an excerpt pass for a line of the report. */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ');
}

/** The excerpts the student wrote, fenced: the model reads them as data, never as instructions. */
export function fencedExcerpts(findings: ReadonlyArray<Finding & { rule: string }>): string | undefined {
  const rows = findings
    .filter((f) => f.excerpt !== undefined)
    .map((f) => `línea ${f.line ?? '-'} (${f.rule}): ${oneLine(f.excerpt!)}`);
  if (rows.length === 0) return undefined;
  return fenceUntrusted('extractos de la entrega, escritos por el estudiante', rows.join('\n'));
}

/** The readable report of a grading: one line per rule, its findings below, excerpts fenced at the end. */
export function gradingText(result: GradingResult, waitedOut: boolean): string {
  const { submission } = result;
  const head =
    submission.status === 'evaluada'
      ? `Entrega ${submission.id} (${submission.lab}): ${result.passed ? 'APROBADA' : 'NO APROBADA'} — ` +
        `${count(result, 'superada')} superadas, ${count(result, 'fallida')} fallidas, ` +
        `${count(result, 'no_aplica')} no aplican.`
      : submission.status === 'fallo_interno'
        ? `Entrega ${submission.id}: el corrector falló al evaluarla (no es culpa de la entrega). Vuelve a ` +
          'enviarla con enviar_entrega; si se repite, avisa al profesorado.'
        : submission.status === 'no_terminada'
          ? `Entrega ${submission.id} (${submission.lab}): NO APROBADA — la corrección no terminó y no se ` +
            `reintenta. Motivo: ${submission.reason ?? 'el corrector se detuvo sin terminarla.'}`
          : `Entrega ${submission.id}: evaluación en curso (${submission.rules_done}/${submission.rules_total} ` +
            `reglas)${waitedOut ? '; vuelve a llamar a resultado_entrega en unos segundos' : ''}.`;
  const lines = [head];
  const findings: Array<Finding & { rule: string }> = [];
  for (const rule of result.rules) {
    lines.push(`- ${rule.rule}: ${OUTCOME_TEXT[rule.outcome]}`);
    for (const finding of rule.findings) {
      lines.push(
        `  · ${finding.line === null ? 'toda la entrega' : `línea ${finding.line}`}: ${finding.message}`,
      );
      findings.push({ ...finding, rule: rule.rule });
    }
  }
  const fence = fencedExcerpts(findings);
  if (fence) lines.push(fence);
  return lines.join('\n');
}

function count(result: GradingResult, outcome: RuleOutcome): number {
  return result.rules.filter((r) => r.outcome === outcome).length;
}
