/**
 * Says in Spanish words what a tool argument's pattern asks for ("palabras de minúsculas y dígitos
 * separadas por un punto o un guion"), so a model told its value is wrong knows how to fix it. It reads
 * the small regular-expression dialect tool schemas use — anchored sequences of literals, character
 * classes and \d with quantifiers, and the "words joined by a separator" group — and returns undefined
 * for anything else (a test over every tool of every server keeps that from happening unnoticed).
 */

interface CharSet {
  ranges: Array<[string, string]>;
  singles: string[];
}
type Node =
  | { kind: 'literal'; text: string }
  | { kind: 'class'; set: CharSet }
  | { kind: 'group'; items: Item[] };
interface Item {
  node: Node;
  min: number;
  max: number;
}

class Unsupported extends Error {}

export function describePattern(pattern: string | RegExp): string | undefined {
  const source = stripDelimiters(typeof pattern === 'string' ? pattern : String(pattern));
  if (source === undefined || !source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$')) {
    return undefined;
  }
  try {
    const parser = new Parser(source.slice(1, -1));
    const items = parser.sequence();
    if (!parser.done()) return undefined;
    return describeSequence(items);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** zod reports a pattern as `/source/flags`; a case-insensitive one would need other words. */
function stripDelimiters(text: string): string | undefined {
  const match = /^\/(.*)\/([a-z]*)$/s.exec(text);
  if (!match) return text;
  return match[2]!.replace(/[gu]/g, '') === '' ? match[1] : undefined;
}

class Parser {
  private pos = 0;
  constructor(private readonly src: string) {}

  done(): boolean {
    return this.pos === this.src.length;
  }

  sequence(): Item[] {
    const items: Item[] = [];
    while (!this.done() && this.src[this.pos] !== ')') {
      const node = this.atom();
      const [min, max] = this.quantifier();
      const last = items.at(-1);
      if (
        node.kind === 'literal' &&
        min === 1 &&
        max === 1 &&
        last?.node.kind === 'literal' &&
        last.max === 1
      ) {
        last.node.text += node.text;
      } else {
        items.push({ node, min, max });
      }
    }
    return items;
  }

  private atom(): Node {
    const c = this.src[this.pos++]!;
    if (c === '[') return { kind: 'class', set: this.charClass() };
    if (c === '(') {
      if (!this.src.startsWith('?:', this.pos)) throw new Unsupported();
      this.pos += 2;
      const items = this.sequence();
      if (this.src[this.pos++] !== ')') throw new Unsupported();
      return { kind: 'group', items };
    }
    if (c === '\\') {
      const e = this.src[this.pos++];
      if (e === 'd') return { kind: 'class', set: { ranges: [['0', '9']], singles: [] } };
      if (e !== undefined && /[\\.\-+*?()[\]{}^$|/]/.test(e)) return { kind: 'literal', text: e };
      throw new Unsupported();
    }
    if ('.|*+?{}^$'.includes(c)) throw new Unsupported();
    return { kind: 'literal', text: c };
  }

  private charClass(): CharSet {
    if (this.src[this.pos] === '^') throw new Unsupported();
    const set: CharSet = { ranges: [], singles: [] };
    while (this.src[this.pos] !== ']') {
      if (this.done()) throw new Unsupported();
      const from = this.classChar();
      if (from === 'DIGIT') {
        set.ranges.push(['0', '9']);
        continue;
      }
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']') {
        this.pos++;
        const to = this.classChar();
        if (to === 'DIGIT') throw new Unsupported();
        set.ranges.push([from, to]);
      } else {
        set.singles.push(from);
      }
    }
    this.pos++;
    return set;
  }

  private classChar(): string {
    const c = this.src[this.pos++]!;
    if (c !== '\\') return c;
    const e = this.src[this.pos++];
    if (e === 'd') return 'DIGIT';
    if (e !== undefined && /[\\.\-+*?()[\]{}^$|/]/.test(e)) return e;
    throw new Unsupported();
  }

  private quantifier(): [number, number] {
    const c = this.src[this.pos];
    if (c === '*' || c === '+' || c === '?') {
      this.pos++;
      if (this.src[this.pos] === '?') throw new Unsupported();
      return c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    }
    if (c !== '{') return [1, 1];
    const match = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.pos));
    if (!match) throw new Unsupported();
    this.pos += match[0].length;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    return [min, max];
  }
}

/** Each kind of character a class may hold, singular and plural. */
interface Kind {
  one: string;
  many: string;
}

const NAMED_CHARS: Readonly<Record<string, Kind>> = {
  '.': { one: 'un punto', many: 'puntos' },
  '-': { one: 'un guion', many: 'guiones' },
  _: { one: 'un guion bajo', many: 'guiones bajos' },
  ' ': { one: 'un espacio', many: 'espacios' },
};

function kinds(set: CharSet): Kind[] {
  const has = (a: string, b: string) => set.ranges.some(([x, y]) => x === a && y === b);
  const out: Kind[] = [];
  const rest = set.ranges.filter(
    ([a, b]) => !['a-z', 'A-Z', '0-9'].includes(`${a}-${b}`) && !(has('0', '9') && a === 'a' && b === 'f'),
  );
  if (has('a', 'z') && has('A', 'Z')) out.push({ one: 'una letra sin tilde', many: 'letras sin tilde' });
  else if (has('a', 'z')) out.push({ one: 'una minúscula', many: 'minúsculas' });
  else if (has('A', 'Z')) out.push({ one: 'una mayúscula', many: 'mayúsculas' });
  if (has('0', '9') && has('a', 'f') && !has('a', 'z')) {
    out.push({ one: 'un dígito hexadecimal (0-9, a-f)', many: 'dígitos hexadecimales (0-9, a-f)' });
  } else if (has('0', '9')) {
    out.push({ one: 'un dígito', many: 'dígitos' });
  }
  for (const [a, b] of rest) {
    const letters = /[a-z]/i.test(a) && /[a-z]/i.test(b);
    out.push(
      letters
        ? { one: `una letra de la ${a} a la ${b}`, many: `letras de la ${a} a la ${b}` }
        : { one: `un carácter entre '${a}' y '${b}'`, many: `caracteres entre '${a}' y '${b}'` },
    );
  }
  for (const c of set.singles) out.push(NAMED_CHARS[c] ?? { one: `'${c}'`, many: `'${c}'` });
  return out;
}

function list(words: string[], conjunction: 'o' | 'y'): string {
  return words.length < 2
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

function count(n: number, kind: Kind[]): string {
  return n === 1
    ? list(
        kind.map((k) => k.one),
        'o',
      )
    : `${n} ${list(
        kind.map((k) => k.many),
        'o',
      )}`;
}

function sameSet(a: CharSet, b: CharSet): boolean {
  const key = (s: CharSet) =>
    JSON.stringify([s.ranges.map((r) => r.join('-')).sort(), [...s.singles].sort()]);
  return key(a) === key(b);
}

function describeItem(item: Item): string {
  const { node, min, max } = item;
  if (node.kind === 'group') throw new Unsupported();
  if (node.kind === 'literal') {
    if (min === 1 && max === 1) return `'${node.text}'`;
    if (min === 0 && max === 1) return `opcionalmente '${node.text}'`;
    throw new Unsupported();
  }
  const k = kinds(node.set);
  if (min === max) return count(min, k);
  if (min === 0 && max === 1) return `opcionalmente ${count(1, k)}`;
  if (max === Infinity) {
    const many = list(
      k.map((x) => x.many),
      'o',
    );
    if (min === 0) return `cualquier cantidad de ${many}`;
    if (min === 1) return many;
    return `al menos ${min} ${many}`;
  }
  return `de ${min} a ${max} ${list(
    k.map((x) => x.many),
    'o',
  )}`;
}

function describeSequence(items: Item[]): string {
  const parts: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const next = items[i + 1];
    // `word(?:[sep]word)*`: words joined by a separator.
    if (
      item.node.kind === 'class' &&
      item.min === 1 &&
      item.max === Infinity &&
      next?.node.kind === 'group'
    ) {
      const [sep, word] = next.node.items;
      if (
        next.min === 0 &&
        next.max === Infinity &&
        next.node.items.length === 2 &&
        sep!.min === 1 &&
        sep!.max === 1 &&
        word!.node.kind === 'class' &&
        word!.min === 1 &&
        word!.max === Infinity &&
        sameSet(item.node.set, word!.node.set)
      ) {
        const separator =
          sep!.node.kind === 'literal'
            ? (NAMED_CHARS[sep!.node.text]?.one ?? `'${sep!.node.text}'`)
            : sep!.node.kind === 'class'
              ? count(1, kinds(sep!.node.set))
              : undefined;
        if (separator === undefined) throw new Unsupported();
        const letters = list(
          kinds(item.node.set).map((x) => x.many),
          'y',
        );
        parts.push(`palabras de ${letters} separadas por ${separator}`);
        i++;
        continue;
      }
    }
    parts.push(describeItem(item));
  }
  if (parts.length === 0) throw new Unsupported();
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} y luego ${parts.at(-1)}`;
}
