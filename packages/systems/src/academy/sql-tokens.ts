/**
 * SQL split into tokens the way SQLite's own tokenizer (tokenize.c) splits it: `--` comments run to the
 * end of the line and `/* … *\/` ones to `*\/` or the end of the text; a backslash escapes nothing; `#` is
 * no comment; '…', "…", `…` and […] quote, doubling the quote inside; every character from U+0080 up is
 * part of an identifier. Reading SQL any other way (another dialect's parser) lets text mean one thing to
 * the guard and another to the engine.
 */
export type SqlToken =
  | { kind: 'word'; text: string }
  | { kind: 'quoted'; text: string }
  | { kind: 'string'; text: string }
  | { kind: 'variable'; text: string }
  | { kind: 'other'; text: string };

const SPACE = new Set([' ', '\t', '\n', '\f', '\r']);
const isIdChar = (c: string) => /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80;
const isIdStart = (c: string) => /[A-Za-z_]/.test(c) || c.charCodeAt(0) >= 0x80;

/** The tokens of `sql` without whitespace and comments; an unterminated quote runs to the end. */
export function tokenize(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  const until = (close: string, from: number, doubled: boolean): number => {
    let j = from;
    for (;;) {
      const k = sql.indexOf(close, j);
      if (k < 0) return sql.length;
      if (doubled && sql[k + 1] === close) {
        j = k + 2;
        continue;
      }
      return k + 1;
    }
  };
  while (i < sql.length) {
    const c = sql[i]!;
    if (SPACE.has(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === '`' || c === '[') {
      const close = c === '[' ? ']' : c;
      const end = until(close, i + 1, c !== '[');
      const closed = end - 1 > i && sql[end - 1] === close;
      const inner = sql.slice(i + 1, closed ? end - 1 : end);
      tokens.push({
        kind: c === "'" ? 'string' : 'quoted',
        text: c === '[' ? inner : inner.replaceAll(close + close, close),
      });
      i = end;
    } else if ((c === 'x' || c === 'X') && sql[i + 1] === "'") {
      const end = until("'", i + 2, false);
      tokens.push({ kind: 'other', text: sql.slice(i, end) });
      i = end;
    } else if (isIdStart(c)) {
      let j = i + 1;
      while (j < sql.length && isIdChar(sql[j]!)) j++;
      tokens.push({ kind: 'word', text: sql.slice(i, j) });
      i = j;
    } else if (c === '?') {
      let j = i + 1;
      while (j < sql.length && /[0-9]/.test(sql[j]!)) j++;
      tokens.push({ kind: 'variable', text: sql.slice(i, j) });
      i = j;
    } else if (
      (c === ':' || c === '@' || c === '$' || c === '#') &&
      i + 1 < sql.length &&
      isIdChar(sql[i + 1]!)
    ) {
      let j = i + 1;
      while (j < sql.length && isIdChar(sql[j]!)) j++;
      tokens.push({ kind: 'variable', text: sql.slice(i, j) });
      i = j;
    } else if (/[0-9.]/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /[0-9A-Za-z_.]/.test(sql[j]!)) {
        // An exponent's sign belongs to the number: 1e-5.
        j += /[eE]/.test(sql[j]!) && /[+-]/.test(sql[j + 1] ?? '') ? 2 : 1;
      }
      tokens.push({ kind: 'other', text: sql.slice(i, j) });
      i = j;
    } else {
      tokens.push({ kind: 'other', text: c });
      i++;
    }
  }
  return tokens;
}

/** SQLite folds identifiers and keywords by ASCII case only. */
export const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
