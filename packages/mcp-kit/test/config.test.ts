import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { booleanSetting, helpText, parseConfig } from '../src/config.js';

const specs = {
  readOnly: {
    flag: 'read-only',
    env: 'X_READ_ONLY',
    boolean: true,
    schema: booleanSetting.default(false),
    description: 'ro',
  },
  timeout: {
    flag: 'timeout-ms',
    env: 'X_TIMEOUT_MS',
    schema: z.coerce.number().int().min(100).default(30_000),
    description: 't',
  },
  url: { flag: 'api-url', env: 'X_API_URL', schema: z.url().optional(), description: 'u' },
};

describe('parseConfig', () => {
  it('applies defaults when nothing is given', () => {
    expect(parseConfig(specs, [], {})).toEqual({
      kind: 'config',
      config: { readOnly: false, timeout: 30_000, url: undefined },
    });
  });

  it('reads the environment, and flags win over it', () => {
    const env = { X_TIMEOUT_MS: '500', X_READ_ONLY: 'yes', X_API_URL: 'http://env.example' };
    expect(parseConfig(specs, [], env)).toMatchObject({
      config: { readOnly: true, timeout: 500, url: 'http://env.example' },
    });
    expect(
      parseConfig(specs, ['--timeout-ms', '900', '--api-url=http://flag.example', '--read-only=false'], env),
    ).toMatchObject({ config: { readOnly: false, timeout: 900, url: 'http://flag.example' } });
  });

  it('treats a bare switch as true', () => {
    expect(parseConfig(specs, ['--read-only'], {})).toMatchObject({ config: { readOnly: true } });
  });

  it('names the flag, the rule and the value of a bad flag', () => {
    const result = parseConfig(specs, ['--timeout-ms', '5'], {});
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.message).toMatch(/--timeout-ms.*100.*"5"/);
  });

  it('names the variable of a bad environment value', () => {
    const result = parseConfig(specs, [], { X_API_URL: 'not a url' });
    expect(result.kind === 'error' && result.message).toMatch(/X_API_URL \(or --api-url\).*"not a url"/);
  });

  it('refuses unknown options, stray arguments and missing values', () => {
    expect(parseConfig(specs, ['--nope'], {})).toEqual({
      kind: 'error',
      message: 'unknown option --nope (see --help)',
    });
    expect(parseConfig(specs, ['stray'], {})).toMatchObject({
      kind: 'error',
      message: expect.stringContaining("'stray'"),
    });
    expect(parseConfig(specs, ['--timeout-ms'], {})).toEqual({
      kind: 'error',
      message: 'option --timeout-ms needs a value',
    });
  });

  it('answers --help and --version before looking at anything else', () => {
    expect(parseConfig(specs, ['--timeout-ms', '1', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseConfig(specs, ['--help'], {})).toEqual({ kind: 'help' });
    expect(parseConfig(specs, ['-v'], {})).toEqual({ kind: 'version' });
  });

  it('documents every option with its variable', () => {
    const help = helpText('x-mcp', 'summary', specs);
    for (const spec of Object.values(specs)) {
      expect(help).toContain(`--${spec.flag}`);
      expect(help).toContain(spec.env);
    }
  });
});
