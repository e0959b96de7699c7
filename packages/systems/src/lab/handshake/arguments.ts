import { GradingOverrun, type GradingTools, quote, seconds } from '../grading.js';
import type { Analysis, Exchange } from './analysis.js';

/**
 * Checks the arguments of every judgeable tools/call against the inputSchema its tools/list showed, in
 * the grading sandbox. A check that overruns ends the grading: the schema's patterns are named, since a
 * pattern that backtracks catastrophically is almost always why.
 */
export async function judgeArguments(analysis: Analysis, tools: GradingTools): Promise<void> {
  if (!analysis.tools) return;
  for (const call of analysis.exchanges) {
    const schema = judgeable(analysis, call);
    if (schema === undefined) continue;
    const verdict = await tools.validateSchema(schema.inputSchema, call.params.arguments ?? {});
    if (verdict.kind !== 'overrun') {
      analysis.argumentVerdicts.set(call, verdict);
      continue;
    }
    const patterns = patternsOf(schema.inputSchema);
    const what =
      `La comprobación de los argumentos de ${quote(call.params.name)} (línea ${call.request.line}) contra ` +
      'su inputSchema';
    const why =
      patterns.length > 0
        ? `El esquema usa ${patterns.length === 1 ? 'el patrón' : 'los patrones'} ` +
          `${patterns.map((p) => quote(p)).join(', ')}: un patrón con cuantificadores anidados (como ` +
          '^(a+)+$) tarda un tiempo exponencial con ciertas entradas (ReDoS) y bloquearía también a un ' +
          'servidor real. Reescríbelo sin cuantificadores anidados (p. ej. ^a+$) y vuelve a enviar la entrega.'
        : 'Reduce el tamaño del esquema o de los argumentos y vuelve a enviar la entrega.';
    throw new GradingOverrun(
      verdict.cause === 'tiempo'
        ? `${what} no terminó dentro de los ${seconds(tools.budgetMs)} que tiene la corrección y se detuvo. ${why}`
        : verdict.cause === 'memoria'
          ? `${what} agotó la memoria del corrector y se detuvo. ${why}`
          : `${what} no pudo terminar: el corrector se detuvo mientras la hacía.`,
    );
  }
}

/** The listed tool a call can be judged against, as the capas_de_error rule judges it. */
function judgeable(a: Analysis, call: Exchange): { inputSchema: unknown } | undefined {
  if (call.method !== 'tools/call' || call.phase !== 'ready' || call.responses.length === 0) return undefined;
  const { name, arguments: args } = call.params;
  if (typeof name !== 'string' || !a.tools?.has(name)) return undefined;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    return undefined;
  return { inputSchema: a.tools.get(name) };
}

/** Every `pattern` string in a schema, first ones first, at most five. */
function patternsOf(schema: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [schema];
  while (stack.length > 0 && found.size < 5) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.add(value);
      else if (typeof value === 'object') stack.push(value);
    }
  }
  return [...found];
}
