import { SQL_MAX_CHARS } from '@code-cluster/shared/academy';

/**
 * First wall of `consulta_sql`: a real SQLite parser (node-sql-parser's sqlite build, ~200 KB, loaded on
 * the first query so a server's cold start does not pay for it) must read the text as exactly one
 * SELECT whose every table reference only reads, calling only functions known to be pure. Keyword
 * matching would be fooled by comments, quoting and stacked statements; an AST is not.
 */

/** Why a statement was refused, in Spanish, for the model to read. */
export class SqlRefusal extends Error {
  override readonly name = 'SqlRefusal';
}

/**
 * Functions a query may call: SQLite's pure scalar, aggregate, window, date and JSON functions. Anything
 * else is refused by name (load_extension, readfile/writefile of the CLI, fts3_tokenizer, and randomblob
 * and zeroblob, which build values of any size a caller asks for).
 */
const ALLOWED_FUNCTIONS = new Set([
  ...['count', 'sum', 'total', 'avg', 'min', 'max', 'group_concat', 'string_agg'],
  ...['abs', 'round', 'sign', 'ceil', 'ceiling', 'floor', 'trunc', 'sqrt', 'pow', 'power', 'exp', 'ln'],
  ...['log', 'log10', 'log2', 'mod', 'pi', 'random'],
  ...['length', 'lower', 'upper', 'substr', 'substring', 'trim', 'ltrim', 'rtrim', 'replace', 'instr'],
  ...['printf', 'format', 'char', 'unicode', 'hex', 'quote', 'like', 'glob', 'concat', 'concat_ws'],
  ...['coalesce', 'ifnull', 'nullif', 'iif', 'typeof'],
  ...['date', 'time', 'datetime', 'julianday', 'strftime', 'unixepoch', 'timediff'],
  ...['json', 'json_extract', 'json_array', 'json_object', 'json_array_length', 'json_type', 'json_valid'],
  ...['json_each', 'json_tree', 'json_group_array', 'json_group_object'],
  ...['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead'],
  ...['first_value', 'last_value', 'nth_value'],
]);

/** Statement types of node-sql-parser that write or change the session; found anywhere in the tree. */
const NOT_READING = new Set([
  'insert',
  'replace',
  'update',
  'delete',
  'create',
  'drop',
  'alter',
  'truncate',
  'rename',
  'attach',
  'detach',
  'vacuum',
  'reindex',
  'analyze',
  'pragma',
  'transaction',
  'set',
  'use',
]);

interface SqliteParser {
  parse(sql: string, options: { database: string }): { tableList: string[]; ast: unknown };
}
let parser: Promise<SqliteParser> | undefined;

function loadParser(): Promise<SqliteParser> {
  // The sqlite-only build: the package's main entry bundles ~15 dialects (MBs). A dynamic import, so a
  // bundled server carries it but evaluates it only on the first query.
  parser ??= import('node-sql-parser/build/sqlite.js').then((module) => {
    const { Parser } = ((module as { default?: unknown }).default ?? module) as {
      Parser: new () => SqliteParser;
    };
    return new Parser();
  });
  return parser;
}

/** Throws SqlRefusal unless `sql` is exactly one read-only SELECT (WITH … SELECT allowed). */
export async function assertSingleSelect(sql: string): Promise<void> {
  if (sql.length > SQL_MAX_CHARS) {
    throw new SqlRefusal(
      `La consulta tiene ${sql.length} caracteres y el máximo es ${SQL_MAX_CHARS}: simplifícala.`,
    );
  }
  if (sql.trim() === '') throw new SqlRefusal('La consulta está vacía: escribe una sentencia SELECT.');
  if (sql.includes('\0')) throw new SqlRefusal('La consulta contiene un carácter nulo (\\0): no se admite.');

  let parsed: { tableList: string[]; ast: unknown };
  try {
    parsed = (await loadParser()).parse(sql, { database: 'sqlite' });
  } catch (error) {
    const detail = String((error as Error).message ?? error)
      .split('\n')[0]!
      .slice(0, 200);
    throw new SqlRefusal(
      'No se pudo analizar la consulta como SQL de SQLite; solo se admite una única sentencia SELECT ' +
        `(o WITH … SELECT) de solo lectura. Detalle del analizador: ${detail}`,
    );
  }
  const statements = (Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast]).filter(Boolean) as Array<{
    type?: string;
  }>;
  if (statements.length !== 1) {
    throw new SqlRefusal(
      `La consulta contiene ${statements.length} sentencias y solo se admite una única sentencia SELECT: ` +
        'quita el punto y coma y lo que le sigue.',
    );
  }
  const [statement] = statements;
  if (statement?.type !== 'select') {
    throw new SqlRefusal(
      `La sentencia es ${String(statement?.type ?? 'desconocida').toUpperCase()} y consulta_sql solo ` +
        'admite SELECT: es una herramienta de analítica de solo lectura y nunca modifica datos.',
    );
  }
  const writes = parsed.tableList.filter((entry) => !entry.startsWith('select::'));
  if (writes.length > 0) {
    throw new SqlRefusal(
      `La consulta no solo lee: ${writes.map((w) => w.split('::').join(' ')).join(', ')}. ` +
        'Solo se admiten SELECT y CTE que leen.',
    );
  }
  walk(statement, new Set());
}

function walk(node: unknown, seen: Set<unknown>): void {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const item of node) walk(item, seen);
    return;
  }
  const record = node as Record<string, unknown>;
  if (typeof record.type === 'string' && NOT_READING.has(record.type.toLowerCase())) {
    throw new SqlRefusal(
      `La consulta contiene una sentencia ${record.type.toUpperCase()} anidada; solo se admiten lecturas.`,
    );
  }
  const name = functionName(record);
  if (name !== undefined && !ALLOWED_FUNCTIONS.has(name)) {
    throw new SqlRefusal(
      `La función '${name}' no está permitida en consulta_sql. Se admiten funciones puras de SQLite ` +
        '(agregados, texto, fechas, JSON y ventanas), no las que cargan extensiones, tocan ficheros o ' +
        'generan blobs de tamaño arbitrario.',
    );
  }
  for (const value of Object.values(record)) walk(value, seen);
}

function functionName(node: Record<string, unknown>): string | undefined {
  if (node.type === 'aggr_func' && typeof node.name === 'string') return node.name.toLowerCase();
  if (node.type !== 'function') return undefined;
  const name = node.name as { name?: Array<{ value?: unknown }> } | string | undefined;
  if (typeof name === 'string') return name.toLowerCase();
  return (name?.name ?? [])
    .map((part) => String(part.value))
    .join('.')
    .toLowerCase();
}
