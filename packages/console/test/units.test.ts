import { expect, it, describe as suite } from 'vitest';
import { parseArgs, UsageError } from '../src/args.js';
import { formatJson } from '../src/json-format.js';
import { schemaViolationLayer } from '../src/protocol.js';
import { describe } from '../src/render.js';
import { colorEnabled } from '../src/style.js';

suite('formatJson', () => {
  const samples: unknown[] = [
    {
      jsonrpc: '2.0',
      id: 1,
      result: { tools: [{ name: 'a', inputSchema: { type: 'object', properties: {} } }] },
    },
    { nested: { deeper: { list: [1, 'two', null, true, { x: 'y'.repeat(120) }] } }, empty: [], none: {} },
    ['only', 'an', 'array'],
    'a "string" with \n escapes',
    42,
    null,
  ];

  it.each(samples)('is valid JSON that parses back to the same value (%#)', (value) => {
    expect(JSON.parse(formatJson(value))).toEqual(value);
  });

  it('keeps what fits on one line and breaks the rest, indenting by two', () => {
    expect(formatJson({ a: 1, b: [1, 2] })).toBe('{ "a": 1, "b": [1, 2] }');
    const long = { text: 'x'.repeat(50), more: { text: 'y'.repeat(50) } };
    expect(formatJson(long, 80)).toBe(
      `{\n  "text": "${'x'.repeat(50)}",\n  "more": { "text": "${'y'.repeat(50)}" }\n}`,
    );
  });

  it('drops undefined members as JSON.stringify does', () => {
    expect(formatJson({ a: undefined, b: 1 })).toBe('{ "b": 1 }');
  });
});

suite('colorEnabled', () => {
  const tty = { isTTY: true } as never;
  const pipe = { isTTY: false } as never;

  it('follows the TTY by default', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
  });

  it('honours NO_COLOR (non-empty), TERM=dumb and FORCE_COLOR, FORCE_COLOR first', () => {
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true);
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(colorEnabled(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorEnabled(tty, { FORCE_COLOR: 'false' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
  });
});

suite('parseArgs', () => {
  it('defaults to the scripted course session against satdt under 2025-06-18', () => {
    expect(parseArgs([])).toEqual({
      mode: 'scripted',
      target: { kind: 'app', app: 'satdt' },
      protocolVersion: '2025-06-18',
      showStderr: false,
      errors: true,
      json: false,
    });
  });

  it('takes everything after -- as the server command, options included', () => {
    expect(parseArgs(['-i', '--show-stderr', '--', 'node', 'server.js', '--json']).target).toEqual({
      kind: 'command',
      command: 'node',
      args: ['server.js', '--json'],
    });
    expect(parseArgs(['-i', '--', 'x']).mode).toBe('interactive');
  });

  it('reads the scripted options', () => {
    const options = parseArgs(['--version', '2025-11-25', '--no-errors', '--json', '--show-stderr']);
    expect(options).toMatchObject({
      protocolVersion: '2025-11-25',
      errors: false,
      json: true,
      showStderr: true,
    });
  });

  it('throws UsageError on a bad command line', () => {
    expect(() => parseArgs(['extra'])).toThrow(UsageError);
    expect(() => parseArgs(['-i', '--no-errors'])).toThrow(/--no-errors is for the scripted mode/);
  });
});

suite('describe', () => {
  it('names what each wire message is', () => {
    const text = (direction: 'in' | 'out', message?: Record<string, unknown>, raw = '') =>
      describe({ direction, raw, ...(message ? { message } : {}) }).text;
    expect(text('out', { jsonrpc: '2.0', id: 7, method: 'tools/list' })).toBe('request tools/list (id 7)');
    expect(text('out', { jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(
      'notification notifications/initialized — no reply expected',
    );
    expect(text('out', undefined, '{bad')).toBe('raw line, not valid JSON');
    expect(text('in', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })).toBe(
      'JSON-RPC error -32700 "Parse error" (id null)',
    );
    expect(text('in', { jsonrpc: '2.0', id: 2, result: { content: [], isError: true } })).toBe(
      'result with isError: true (id 2)',
    );
    expect(text('in', undefined, 'hello')).toMatch(/not JSON-RPC/);
  });
});

suite('schemaViolationLayer', () => {
  it('is the protocol layer up to 2025-06-18 and a tool result from 2025-11-25 on (SEP-1303)', () => {
    expect(schemaViolationLayer('2024-11-05')).toBe('protocol');
    expect(schemaViolationLayer('2025-06-18')).toBe('protocol');
    expect(schemaViolationLayer('2025-11-25')).toBe('result');
  });
});
