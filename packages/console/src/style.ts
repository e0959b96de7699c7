import type { OutStream } from './io.js';

/** ANSI styling that collapses to the identity when colour is off. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

/**
 * Colour only for a terminal, as Node itself decides: FORCE_COLOR wins when set ("0"/"false" force it off),
 * then NO_COLOR (any non-empty value, no-color.org), then TERM=dumb, then whether the stream is a TTY.
 */
export function colorEnabled(stream: OutStream, env: NodeJS.ProcessEnv): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env['NO_COLOR']) return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

export function createStyle(enabled: boolean): Style {
  const sgr = (open: number, close: number) => (text: string) =>
    enabled ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    blue: sgr(34, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
  };
}
