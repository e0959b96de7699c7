import type { OutStream } from './io.js';
import { formatJson } from './json-format.js';
import type { PeerEvent, WireMessage } from './peer.js';
import type { Style } from './style.js';

/** One expectation of a scenario and whether the server met it. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface PrinterOptions {
  out: OutStream;
  style: Style;
  /** Only the raw transcript, one JSON object per line; everything explanatory is dropped. */
  json: boolean;
  /** Print the wire messages (default); off, only notes, quotes, checks and tables are printed. */
  transcript?: boolean;
  /**
   * Readable mode: a short text to print instead of a message's body (a long tools/list result shown
   * elsewhere as a table, say); undefined prints the body. --json always prints every message in full.
   */
  abridge?: (message: WireMessage) => string | undefined;
}

/**
 * Turns the transcript of one or more sessions into text. Every line names the session it belongs to, so
 * several servers can share one printer.
 */
export class Printer {
  readonly json: boolean;
  private readonly out: OutStream;
  private readonly style: Style;
  private readonly transcript: boolean;
  private readonly abridge: ((message: WireMessage) => string | undefined) | undefined;

  constructor(options: PrinterOptions) {
    this.out = options.out;
    this.style = options.style;
    this.json = options.json;
    this.transcript = options.transcript ?? true;
    this.abridge = options.abridge;
  }

  /** A numbered step of a scenario, with a short explanation of what it shows. */
  heading(title: string, explanation?: string): void {
    if (this.json) return;
    const s = this.style;
    this.write(`\n${s.bold(s.blue(`── ${title} `))}${s.blue('─'.repeat(Math.max(3, 72 - title.length)))}`);
    if (explanation) this.write(wrap(explanation, 2).map(s.dim).join('\n'));
  }

  /** Explanatory text that is not part of the wire transcript. */
  note(text: string): void {
    if (this.json) return;
    this.write(wrap(text, 2).join('\n'));
  }

  /** A server's answer as a reader of the course would see it (the text block of a tool result). */
  quote(text: string): void {
    if (this.json) return;
    for (const line of text.split('\n')) this.write(`  ${this.style.bold('▸')} ${this.style.bold(line)}`);
  }

  /** Preformatted lines (a table), indented by two; nothing in --json mode. */
  block(lines: readonly string[]): void {
    if (this.json) return;
    for (const line of lines) this.write(`  ${line}`);
  }

  event(label: string, event: PeerEvent): void {
    if (!this.transcript) return;
    if (this.json) {
      this.write(
        JSON.stringify({
          server: label,
          direction: event.direction,
          ...(event.message ? { message: event.message } : { raw: event.raw }),
        }),
      );
      return;
    }
    const s = this.style;
    const arrow = event.direction === 'out' ? s.cyan('→') : s.green('←');
    const { text, tone } = describe(event);
    const color =
      tone === 'error' ? s.red : tone === 'warning' ? s.yellow : event.direction === 'out' ? s.cyan : s.green;
    this.write(`${arrow} ${s.dim(`[${label}]`)} ${color(text)}`);
    const short = event.message && this.abridge?.(event.message);
    if (short) {
      this.write(indent(s.dim(short), BODY_INDENT));
      return;
    }
    const body = event.message ? formatJson(event.message, 100 - BODY_INDENT) : event.raw;
    this.write(indent(body, BODY_INDENT));
  }

  /** One line the server wrote to stderr (its logs). */
  stderr(label: string, line: string): void {
    if (this.json && !this.transcript) return;
    if (this.json) {
      this.write(JSON.stringify({ server: label, direction: 'stderr', text: line }));
      return;
    }
    this.write(this.style.dim(`  ${label} stderr │ ${line}`));
  }

  check(check: Check): void {
    if (this.json) return;
    const s = this.style;
    const mark = check.ok ? s.green('✓ expected') : s.red('✗ NOT as expected');
    // The detail says what was seen instead; on success the name already says it.
    this.write(`  ${mark}: ${check.name}${!check.ok && check.detail ? s.dim(` — ${check.detail}`) : ''}`);
  }

  summary(checks: readonly Check[]): void {
    if (this.json) return;
    const s = this.style;
    const held = checks.filter((c) => c.ok).length;
    this.heading('Summary');
    for (const check of checks) {
      this.write(
        `  ${check.ok ? s.green('✓') : s.red('✗')} ${check.name}${check.ok ? '' : s.dim(` — ${check.detail}`)}`,
      );
    }
    const line = `${held}/${checks.length} expectations held`;
    this.write(`\n${held === checks.length ? s.bold(s.green(line)) : s.bold(s.red(line))}`);
  }

  /** A line of free text (REPL answers, errors of the console itself). */
  line(text = ''): void {
    this.write(text);
  }

  private write(text: string): void {
    this.out.write(`${text}\n`);
  }
}

const BODY_INDENT = 4;

type Tone = 'normal' | 'error' | 'warning';

/** A one-line description of a wire message: what kind of message it is and what it refers to. */
export function describe(event: PeerEvent): { text: string; tone: Tone } {
  const m = event.message;
  if (!m) {
    return event.direction === 'out'
      ? { text: 'raw line, not valid JSON', tone: 'warning' }
      : { text: 'stdout line that is not JSON-RPC (stdout must carry protocol only)', tone: 'error' };
  }
  const id = 'id' in m ? ` (id ${JSON.stringify(m.id)})` : '';
  if (typeof m.method === 'string') {
    if (!('id' in m)) return { text: `notification ${m.method} — no reply expected`, tone: 'normal' };
    return { text: `request ${m.method}${id}`, tone: 'normal' };
  }
  if (m.error !== undefined) return { text: `JSON-RPC error ${errorLabel(m)}${id}`, tone: 'error' };
  if ('result' in m) {
    const isError = (m.result as { isError?: unknown } | null)?.isError === true;
    return isError
      ? { text: `result with isError: true${id}`, tone: 'warning' }
      : { text: `result${id}`, tone: 'normal' };
  }
  return { text: `message that is neither request nor response${id}`, tone: 'warning' };
}

function errorLabel(m: WireMessage): string {
  const error = m.error as { code?: unknown; message?: unknown } | null;
  return `${String(error?.code)} "${String(error?.message)}"`;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

/** Word-wraps prose to 100 columns with an indent. */
function wrap(text: string, spaces: number, width = 100): string[] {
  const pad = ' '.repeat(spaces);
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (current && pad.length + current.length + 1 + word.length > width) {
      lines.push(pad + current);
      current = word;
    } else {
      current = current ? `${current} ${word}` : word;
    }
  }
  if (current) lines.push(pad + current);
  return lines;
}
