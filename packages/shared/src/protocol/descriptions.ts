/**
 * Words that end in a period and never end the sentence, whatever follows (Spanish and English, lower
 * case). "etc." is not among them: it may close a sentence, and the next word's case tells.
 */
const ABBREVIATIONS = new Set([
  'p.',
  'ej.',
  'p.ej.',
  'e.g.',
  'i.e.',
  'vs.',
  'cf.',
  'aprox.',
  'máx.',
  'mín.',
  'núm.',
  'n.º',
  'pág.',
  'sr.',
  'sra.',
  'dr.',
  'dra.',
]);

/**
 * The first sentence of a description: up to a period followed by a space, unless that period closes an
 * abbreviation ("p. ej.", "e.g.") or the next word starts in lower case ("etc. y"), as no sentence does.
 */
export function firstSentence(text: string): string {
  for (const match of text.matchAll(/\.(\s+)(\S?)/g)) {
    const end = match.index + 1;
    const word =
      /\S+$/
        .exec(text.slice(0, end))?.[0]
        .replace(/^[(¿¡"'«]+/, '')
        .toLowerCase() ?? '';
    const next = match[2] ?? '';
    if (ABBREVIATIONS.has(word) || (next !== '' && next !== next.toUpperCase())) continue;
    return text.slice(0, end);
  }
  return text;
}
