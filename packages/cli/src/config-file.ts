import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  applyEdits,
  type FormattingOptions,
  findNodeAtLocation,
  modify,
  type Node,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';

/** What a change to one config file does; nothing is written until `write`. */
export interface Change {
  file: string;
  before: string | undefined;
  after: string;
  added: string[];
  updated: string[];
  unchanged: string[];
  removed: string[];
}

export class ConfigError extends Error {}

/**
 * Reads a config file as JSON with comments (VS Code's mcp.json is JSONC; the others are JSON, which is
 * JSONC too). A file that does not parse is never rewritten: the user's own text matters more than ours.
 */
function read(file: string): { text: string | undefined; value: Record<string, unknown> } {
  if (!existsSync(file)) return { text: undefined, value: {} };
  const text = readFileSync(file, 'utf8');
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const [first] = errors;
    throw new ConfigError(
      `cannot read ${file}: ${printParseErrorCode(first!.error)} at offset ${first!.offset}; fix the file (nothing was written)`,
    );
  }
  if (text.trim() === '') return { text, value: {} };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(`cannot use ${file}: it is not a JSON object (nothing was written)`);
  }
  return { text, value: value as Record<string, unknown> };
}

/** Keeps the file's own indentation and line ends. */
function formatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;
const indentAt = (text: string, offset: number) => /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];

/** A value as the file would write it, at the indentation of the line it starts on. */
function render(value: unknown, options: FormattingOptions, indent: string): string {
  const unit = options.insertSpaces ? ' '.repeat(options.tabSize ?? 2) : '\t';
  return JSON.stringify(value, null, unit).split('\n').join(`${options.eol}${indent}`);
}

/** Where a member's line ends: after its value, an optional comma and a comment on the same line. */
function memberTail(
  text: string,
  valueEnd: number,
): { comma: number | undefined; lineEnd: number | undefined } {
  const rest = /^[ \t]*(,)?[ \t]*(\/\/[^\n]*|\/\*.*?\*\/)?[ \t]*(\r?\n|$)/.exec(text.slice(valueEnd));
  if (!rest) return { comma: undefined, lineEnd: undefined };
  const comma = rest[1] ? valueEnd + rest[0].indexOf(',') : undefined;
  return { comma, lineEnd: valueEnd + rest[0].length };
}

/**
 * Edits one member of the servers object so that only that member's lines change: the user's other
 * entries keep their exact text, comments and layout (a formatter would re-indent their lines).
 * Falls back to jsonc-parser's own edit when the object is written on one line.
 */
function setMember(
  text: string,
  key: string,
  name: string,
  entry: unknown,
  options: FormattingOptions,
): string {
  const tree = parseTree(text, [], { allowTrailingComma: true })!;
  const object = findNodeAtLocation(tree, [key]);
  const fallback = () => applyEdits(text, modify(text, [key, name], entry, { formattingOptions: options }));
  if (object?.type !== 'object' || !object.children?.length) return fallback();
  const existing = object.children.find((p) => p.children?.[0]?.value === name);
  if (existing) {
    const value = existing.children![1]!;
    return `${text.slice(0, value.offset)}${render(entry, options, indentAt(text, existing.offset))}${text.slice(value.offset + value.length)}`;
  }
  const last: Node = object.children.at(-1)!;
  const valueEnd = last.offset + last.length;
  const { comma, lineEnd } = memberTail(text, valueEnd);
  if (lineEnd === undefined) return fallback();
  const indent = indentAt(text, last.offset);
  const member = `${indent}${JSON.stringify(name)}: ${render(entry, options, indent)}${comma !== undefined ? ',' : ''}`;
  const eolAtEnd = /\r?\n$/.test(text.slice(0, lineEnd)) ? '' : options.eol!;
  const head =
    comma !== undefined
      ? text.slice(0, lineEnd)
      : `${text.slice(0, valueEnd)},${text.slice(valueEnd, lineEnd)}`;
  return `${head}${eolAtEnd}${member}${options.eol}${text.slice(lineEnd)}`;
}

/** Removes one member's lines; the comma before it goes too when it was the last (JSON has no trailing commas). */
function removeMember(text: string, key: string, name: string, options: FormattingOptions): string {
  const tree = parseTree(text, [], { allowTrailingComma: true })!;
  const object = findNodeAtLocation(tree, [key]);
  const index = object?.children?.findIndex((p) => p.children?.[0]?.value === name) ?? -1;
  const fallback = () =>
    applyEdits(text, modify(text, [key, name], undefined, { formattingOptions: options }));
  if (!object || index === -1) return text;
  const member = object.children![index]!;
  const start = lineStart(text, member.offset);
  const { comma, lineEnd } = memberTail(text, member.offset + member.length);
  if (lineEnd === undefined || text.slice(start, member.offset).trim() !== '') return fallback();
  let result = `${text.slice(0, start)}${text.slice(lineEnd)}`;
  const previous = object.children![index - 1];
  if (index === object.children!.length - 1 && comma === undefined && previous) {
    const tail = memberTail(result, previous.offset + previous.length);
    if (tail.comma !== undefined) result = `${result.slice(0, tail.comma)}${result.slice(tail.comma + 1)}`;
  }
  return result;
}

/** The plan for a file before any entry is touched: what it holds stays as it is. */
function unchangedFile(file: string, text: string | undefined): Change {
  return { file, before: text, after: text ?? '', added: [], updated: [], unchanged: [], removed: [] };
}

/**
 * Sets `key.name` for each entry, keeping every other member, entry, comment and blank line of the file.
 * `owns(name, current)` says whether an existing entry of that name is ours to replace.
 */
export function planSet(
  file: string,
  key: string,
  entries: Record<string, Record<string, unknown>>,
  owns: (name: string, current: unknown) => boolean,
): Change {
  const { text, value } = read(file);
  const existing = (value[key] ?? {}) as Record<string, unknown>;
  const change = unchangedFile(file, text);
  if (text === undefined || text.trim() === '') {
    change.after = `${JSON.stringify({ [key]: entries }, null, 2)}\n`;
    change.added = Object.keys(entries);
    return change;
  }
  const options = formatting(text);
  let after = text;
  for (const [name, entry] of Object.entries(entries)) {
    const current = existing[name];
    if (current !== undefined && !owns(name, current)) {
      throw new ConfigError(
        `${file} already has a server "${name}" that this installer did not write (${JSON.stringify(current)}); rename or remove it, or leave ${name} out of --servers (nothing was written)`,
      );
    }
    if (current !== undefined && same(current, entry)) {
      change.unchanged.push(name);
      continue;
    }
    (current === undefined ? change.added : change.updated).push(name);
    after = setMember(after, key, name, entry, options);
  }
  change.after = after;
  return change;
}

/** Removes the named entries that `owns` says are ours; everything else stays as it was. */
export function planRemove(
  file: string,
  key: string,
  names: string[],
  owns: (name: string, current: unknown) => boolean,
): Change {
  const { text, value } = read(file);
  const existing = (value[key] ?? {}) as Record<string, unknown>;
  const change = unchangedFile(file, text);
  if (text === undefined) return change;
  const options = formatting(text);
  for (const name of names) {
    if (existing[name] === undefined || !owns(name, existing[name])) continue;
    change.removed.push(name);
    change.after = removeMember(change.after, key, name, options);
  }
  return change;
}

/** The entries of `key` in a config file (empty when the file does not exist). */
export function readEntries(file: string, key: string): Record<string, unknown> {
  return (read(file).value[key] ?? {}) as Record<string, unknown>;
}

/**
 * Writes a change: a backup of the previous file first (beside it, timestamped), then the new text
 * atomically. Writes nothing when the text is the same, so running an install twice changes nothing.
 */
export function write(change: Change, now = new Date()): { written: boolean; backup?: string } {
  if (change.before === change.after) return { written: false };
  mkdirSync(dirname(change.file), { recursive: true });
  let backup: string | undefined;
  if (change.before !== undefined) {
    backup = `${change.file}.${now.toISOString().replace(/[:.]/g, '-')}.bak`;
    copyFileSync(change.file, backup);
  }
  const temp = `${change.file}.${process.pid}.tmp`;
  writeFileSync(temp, change.after);
  renameSync(temp, change.file);
  return backup ? { written: true, backup } : { written: true };
}
