import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const README = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'README.md');

/**
 * The text between `<!-- name -->` and `<!-- /name -->` in the root README. With UPDATE_README=1 it is
 * rewritten to `expected` first, so regenerating the docs is one command and drift is a failing test.
 */
export function readmeSection(name: string, expected: string): string {
  const open = `<!-- ${name} -->\n`;
  const close = `\n<!-- /${name} -->`;
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(open);
  const end = text.indexOf(close, start);
  if (start === -1 || end === -1) throw new Error(`README.md has no section <!-- ${name} -->`);
  if (process.env.UPDATE_README === '1') {
    writeFileSync(README, text.slice(0, start + open.length) + expected + text.slice(end));
    return expected;
  }
  return text.slice(start + open.length, end);
}
