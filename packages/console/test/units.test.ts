import { expect, it, describe as suite } from 'vitest';
import { parseArgs, UsageError } from '../src/args.js';
import { formatCatalog, mergeCatalog, ToolNameClashError, toolsOf } from '../src/catalog.js';
import { formatJson } from '../src/json-format.js';
import { schemaViolationLayer, toolSummaries } from '../src/protocol.js';
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
  it('defaults to the federated episode under 2025-06-18, on a temporary data dir', () => {
    expect(parseArgs([])).toEqual({
      mode: 'episode',
      target: { kind: 'app', app: 'satdt' },
      servers: [],
      protocolVersion: '2025-06-18',
      showStderr: false,
      errors: true,
      json: false,
    });
    expect(parseArgs(['episode'])).toEqual(parseArgs([]));
  });

  it('names the commands: episode, catalog, course (the scripted mode)', () => {
    expect(parseArgs(['episode', '--json', '--show-stderr', '--data-dir', 'd'])).toMatchObject({
      mode: 'episode',
      json: true,
      showStderr: true,
      dataDir: 'd',
    });
    expect(parseArgs(['course']).mode).toBe('scripted');
    expect(parseArgs(['course', '-i', '--server', 'hub'])).toMatchObject({
      mode: 'interactive',
      target: { kind: 'app', app: 'hub' },
    });
    expect(
      parseArgs(['catalog', '--server', 'satdt', '--server', 'hub', '--', 'node', 's.js']).servers,
    ).toEqual([
      { kind: 'app', app: 'satdt' },
      { kind: 'app', app: 'hub' },
      { kind: 'command', command: 'node', args: ['s.js'] },
    ]);
  });

  it('without a command, the flags of one server still select the course session', () => {
    expect(parseArgs(['--server', 'satdt']).mode).toBe('scripted');
    expect(parseArgs(['--no-errors']).mode).toBe('scripted');
    expect(parseArgs(['--', 'node', 's.js']).mode).toBe('scripted');
    expect(parseArgs(['-i']).mode).toBe('interactive');
    expect(parseArgs(['--json']).mode).toBe('episode');
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

suite('toolSummaries', () => {
  it('takes the first sentence past an abbreviation, as the README tables do, and clips it to one line', () => {
    const listed = (description: unknown) => ({
      jsonrpc: '2.0',
      id: 2,
      result: { tools: [{ name: 't', description }] },
    });
    const [abbreviated] = toolSummaries(
      listed('Reserva un pase (p. ej. la ISS) en una estación. Úsala antes.'),
    );
    expect(abbreviated?.summary).toBe('Reserva un pase (p. ej. la ISS) en una estación.');
    const [long] = toolSummaries(listed(`${'a'.repeat(120)}. Otra.`));
    expect(long?.summary).toBe(`${'a'.repeat(99)}…`);
    expect(toolSummaries(listed(undefined))[0]?.summary).toBe('');
  });
});

suite('the unified catalog', () => {
  const list = (...names: string[]) => ({
    jsonrpc: '2.0',
    id: 2,
    result: { tools: names.map((name) => ({ name, title: `T ${name}`, inputSchema: { type: 'object' } })) },
  });

  it("merges every server's tools, sorted by name, each with its server", () => {
    const catalog = mergeCatalog([
      toolsOf('satdt', list('proximos_pases', 'satelite_info')),
      toolsOf('hub', list('leer_eventos')),
    ]);
    expect(catalog.map((e) => [e.name, e.server])).toEqual([
      ['leer_eventos', 'hub'],
      ['proximos_pases', 'satdt'],
      ['satelite_info', 'satdt'],
    ]);
    expect(formatCatalog(catalog)).toEqual([
      'tool            server  title',
      '──────────────  ──────  ─────',
      'leer_eventos    hub     T leer_eventos',
      'proximos_pases  satdt   T proximos_pases',
      'satelite_info   satdt   T satelite_info',
    ]);
  });

  it('refuses a name offered by two servers, naming both', () => {
    const merge = () =>
      mergeCatalog([toolsOf('satdt', list('satelite_info')), toolsOf('otro', list('satelite_info'))]);
    expect(merge).toThrow(ToolNameClashError);
    expect(merge).toThrow('satelite_info is offered by satdt and otro');
  });

  it('says which server failed to list its tools', () => {
    expect(() =>
      toolsOf('hub', { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } }),
    ).toThrow('hub answered tools/list with JSON-RPC error -32601 "Method not found"');
  });
});
