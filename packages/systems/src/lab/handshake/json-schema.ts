/**
 * Whether tool arguments satisfy the inputSchema a server listed: `valid`, `invalid` with the first
 * violation in Spanish, or `unknown` when the schema uses a keyword this checker does not implement (then
 * the grader does not judge that call rather than guess).
 */
export type SchemaVerdict =
  | { kind: 'valid' }
  | { kind: 'invalid'; reason: string }
  | { kind: 'unknown'; keyword: string };

export type Validate = (schema: unknown, value: unknown, path?: string) => SchemaVerdict;

/**
 * Builds the validator. The schema and its `pattern`s come from a student's transcript, so the validator
 * runs in the grading sandbox's worker thread (sandbox.ts), which is killed when it overruns: that is why
 * this factory is self-contained (no imports, no outer variables) and is shipped to the worker as its own
 * source text, with `quote` passed in the same way.
 */
export function schemaValidator(quote: (value: unknown) => string): Validate {
  /** Keywords that only describe: they never make a value invalid. */
  const ANNOTATIONS = new Set([
    '$schema',
    '$id',
    'title',
    'description',
    'default',
    'examples',
    'readOnly',
    'writeOnly',
    'deprecated',
    '$comment',
  ]);
  const CHECKED = new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'items',
    'minItems',
    'maxItems',
    'uniqueItems',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minLength',
    'maxLength',
    'pattern',
    'format',
    'enum',
    'const',
    'anyOf',
    'oneOf',
    'allOf',
  ]);
  const FORMATS: Record<string, RegExp> = {
    'date-time': /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/,
    date: /^\d{4}-\d\d-\d\d$/,
    email: /^[^\s@]+@[^\s@]+$/,
    uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/,
  };

  const VALID: SchemaVerdict = { kind: 'valid' };

  function validate(schema: unknown, value: unknown, path = ''): SchemaVerdict {
    if (schema === true || schema === undefined) return VALID;
    if (schema === false) return invalid(path, 'no admite ningún valor', value);
    if (typeof schema !== 'object' || schema === null) return { kind: 'unknown', keyword: '(esquema)' };
    const s = schema as Record<string, unknown>;
    for (const keyword of Object.keys(s)) {
      if (!CHECKED.has(keyword) && !ANNOTATIONS.has(keyword)) return { kind: 'unknown', keyword };
    }
    const checks: Array<() => SchemaVerdict> = [
      () => checkType(s, value, path),
      () => checkEnum(s, value, path),
      () => checkNumber(s, value, path),
      () => checkString(s, value, path),
      () => checkArray(s, value, path),
      () => checkObject(s, value, path),
      () => checkCombinators(s, value, path),
    ];
    for (const check of checks) {
      const verdict = check();
      if (verdict.kind !== 'valid') return verdict;
    }
    return VALID;
  }

  function invalid(path: string, requirement: string, value: unknown): SchemaVerdict {
    return {
      kind: 'invalid',
      reason: `'${path || '(argumentos)'}' ${requirement}; recibido: ${quote(value)}`,
    };
  }

  function typeOf(value: unknown): string {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'array';
    if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
    return typeof value;
  }

  function checkType(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    if (s.type === undefined) return VALID;
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const actual = typeOf(value);
    const ok = types.some((t) => t === actual || (t === 'number' && actual === 'integer'));
    return ok ? VALID : invalid(path, `debe ser de tipo ${types.join(' o ')}`, value);
  }

  function checkEnum(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    const same = (a: unknown) => JSON.stringify(a) === JSON.stringify(value);
    if (Array.isArray(s.enum) && !s.enum.some(same)) {
      return invalid(path, `debe ser uno de ${s.enum.map((v) => quote(v)).join(', ')}`, value);
    }
    if ('const' in s && !same(s.const)) return invalid(path, `debe ser ${quote(s.const)}`, value);
    return VALID;
  }

  function checkNumber(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    if (typeof value !== 'number') return VALID;
    if (typeof s.minimum === 'number' && value < s.minimum)
      return invalid(path, `debe ser ≥ ${s.minimum}`, value);
    if (typeof s.maximum === 'number' && value > s.maximum)
      return invalid(path, `debe ser ≤ ${s.maximum}`, value);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum)
      return invalid(path, `debe ser > ${s.exclusiveMinimum}`, value);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum)
      return invalid(path, `debe ser < ${s.exclusiveMaximum}`, value);
    if (typeof s.multipleOf === 'number' && !Number.isInteger(value / s.multipleOf))
      return invalid(path, `debe ser múltiplo de ${s.multipleOf}`, value);
    return VALID;
  }

  function checkString(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    if (typeof value !== 'string') return VALID;
    const length = [...value].length;
    if (typeof s.minLength === 'number' && length < s.minLength)
      return invalid(path, `debe tener al menos ${s.minLength} caracteres`, value);
    if (typeof s.maxLength === 'number' && length > s.maxLength)
      return invalid(path, `debe tener como máximo ${s.maxLength} caracteres`, value);
    if (typeof s.pattern === 'string') {
      let pattern: RegExp;
      try {
        pattern = new RegExp(s.pattern, 'u');
      } catch {
        return { kind: 'unknown', keyword: 'pattern' };
      }
      if (!pattern.test(value)) return invalid(path, `debe cumplir el patrón ${quote(s.pattern)}`, value);
    }
    if (typeof s.format === 'string') {
      const format = FORMATS[s.format];
      if (!format) return { kind: 'unknown', keyword: `format: ${s.format}` };
      if (!format.test(value)) return invalid(path, `debe tener formato ${s.format}`, value);
    }
    return VALID;
  }

  function checkArray(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    if (!Array.isArray(value)) return VALID;
    if (typeof s.minItems === 'number' && value.length < s.minItems)
      return invalid(path, `debe tener al menos ${s.minItems} elementos`, value);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems)
      return invalid(path, `debe tener como máximo ${s.maxItems} elementos`, value);
    if (s.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
      return invalid(path, 'no debe repetir elementos', value);
    for (const [index, item] of value.entries()) {
      const verdict = validate(s.items, item, `${path}[${index}]`);
      if (verdict.kind !== 'valid') return verdict;
    }
    return VALID;
  }

  function checkObject(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    if (typeOf(value) !== 'object') return VALID;
    const object = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) {
      if (!(key in object)) return { kind: 'invalid', reason: `falta el argumento obligatorio '${at(key)}'` };
    }
    for (const [key, item] of Object.entries(object)) {
      if (key in properties) {
        const verdict = validate(properties[key], item, at(key));
        if (verdict.kind !== 'valid') return verdict;
      } else if (s.additionalProperties === false) {
        return { kind: 'invalid', reason: `argumento desconocido '${at(key)}'` };
      } else if (typeof s.additionalProperties === 'object') {
        const verdict = validate(s.additionalProperties, item, at(key));
        if (verdict.kind !== 'valid') return verdict;
      }
    }
    return VALID;
  }

  function checkCombinators(s: Record<string, unknown>, value: unknown, path: string): SchemaVerdict {
    for (const sub of Array.isArray(s.allOf) ? s.allOf : []) {
      const verdict = validate(sub, value, path);
      if (verdict.kind !== 'valid') return verdict;
    }
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const options = s[keyword];
      if (!Array.isArray(options)) continue;
      const verdicts = options.map((sub) => validate(sub, value, path));
      const unknown = verdicts.find((v) => v.kind === 'unknown');
      const passing = verdicts.filter((v) => v.kind === 'valid').length;
      if (keyword === 'anyOf' ? passing > 0 : passing === 1) continue;
      if (unknown) return unknown;
      return invalid(
        path,
        `no cumple ${keyword === 'anyOf' ? 'ninguna' : 'exactamente una'} de sus alternativas`,
        value,
      );
    }
    return VALID;
  }

  return validate;
}
