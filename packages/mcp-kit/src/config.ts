import { z } from 'zod';

/** One setting: a command-line flag with an environment-variable fallback, checked by a zod schema. */
export interface OptionSpec<T extends z.ZodType = z.ZodType> {
  /** Flag name without dashes: `read-only` is `--read-only`. */
  flag: string;
  env?: string;
  schema: T;
  description: string;
  /** A switch: `--read-only` alone means true. */
  boolean?: boolean;
}

export type OptionSpecs = Record<string, OptionSpec>;
export type ConfigOf<S extends OptionSpecs> = { [K in keyof S]: z.output<S[K]['schema']> };

export type ParseResult<S extends OptionSpecs> =
  | { kind: 'config'; config: ConfigOf<S> }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** Accepts the usual spellings of a switch in flags and environment variables. */
export const booleanSetting = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])])
  .transform((value) => value === true || ['1', 'true', 'yes', 'on', ''].includes(String(value)));

/**
 * Parses flags (`--name value`, `--name=value`, switches) with environment fallbacks, once, into a typed
 * object. Flags win over the environment. The first problem is reported naming the flag, the variable,
 * what is expected and what was given.
 */
export function parseConfig<S extends OptionSpecs>(
  specs: S,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): ParseResult<S> {
  const byFlag = new Map(Object.entries(specs).map(([key, spec]) => [spec.flag, [key, spec] as const]));
  const raw = new Map<string, unknown>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-v') return { kind: 'version' };
    if (!arg.startsWith('--')) return { kind: 'error', message: `unexpected argument '${arg}' (see --help)` };
    const eq = arg.indexOf('=');
    const flag = arg.slice(2, eq === -1 ? undefined : eq);
    const entry = byFlag.get(flag);
    if (!entry) return { kind: 'error', message: `unknown option --${flag} (see --help)` };
    const [key, spec] = entry;
    if (eq !== -1) raw.set(key, arg.slice(eq + 1));
    else if (spec.boolean) raw.set(key, true);
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) raw.set(key, argv[++i]);
    else return { kind: 'error', message: `option --${flag} needs a value` };
  }

  const config: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const fromFlag = raw.has(key);
    const value = fromFlag ? raw.get(key) : spec.env ? env[spec.env] : undefined;
    const parsed = spec.schema.safeParse(value);
    if (!parsed.success) {
      const where = fromFlag || !spec.env ? `--${spec.flag}` : `${spec.env} (or --${spec.flag})`;
      const issue = parsed.error.issues[0];
      return {
        kind: 'error',
        message: `invalid value for ${where}: ${issue?.message ?? 'invalid'}; got ${JSON.stringify(value)}`,
      };
    }
    config[key] = parsed.data;
  }
  return { kind: 'config', config: config as ConfigOf<S> };
}

export function helpText(name: string, summary: string, specs: OptionSpecs): string {
  const rows = Object.values(specs).map((spec) => {
    const left = `  --${spec.flag}${spec.boolean ? '' : ' <value>'}`;
    const env = spec.env ? ` [env ${spec.env}]` : '';
    return `${left.padEnd(30)} ${spec.description}${env}`;
  });
  return `${name}: ${summary}\n\nUsage: ${name} [options]\n\nOptions:\n${rows.join('\n')}\n  --help, -h${' '.repeat(20)} show this help\n  --version, -v${' '.repeat(17)} print the version\n`;
}
