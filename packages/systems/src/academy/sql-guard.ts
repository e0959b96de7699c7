import { SQL_MAX_CHARS } from '@code-cluster/shared/academy';
import { asciiLower, tokenize } from './sql-tokens.js';
import { PRIVATE_TABLES } from './store.js';

/**
 * The server-side screening of `consulta_sql`, before the engine sees the text. It reads the SQL with
 * SQLite's own token rules (sql-tokens.ts) and checks only what tokens can tell for sure: one statement,
 * that it starts as a read (SELECT, WITH or VALUES), that it names no private table and no `pragma_*`
 * table, and how its parameters are written. Whether the statement is valid and reads only is the
 * engine's verdict, in the read-only child (sql-child.ts): a parser of its own here would refuse valid
 * SQLite and could read some text differently from SQLite.
 */

/** Why a statement was refused, in Spanish, for the model to read. */
export class SqlRefusal extends Error {
  override readonly name = 'SqlRefusal';
}

/**
 * Functions a query may call, checked by the child against the functions SQLite compiled into the
 * statement (EXPLAIN). Anything else is refused by name: load_extension, the CLI's readfile/writefile,
 * fts3_tokenizer, and randomblob and zeroblob, which build values of any size a caller asks for.
 */
export const ALLOWED_FUNCTIONS: readonly string[] = [
  ...['count', 'sum', 'total', 'avg', 'min', 'max', 'group_concat', 'string_agg', 'median', 'percentile'],
  ...['abs', 'round', 'sign', 'ceil', 'ceiling', 'floor', 'trunc', 'sqrt', 'pow', 'power', 'exp', 'ln'],
  ...['log', 'log10', 'log2', 'mod', 'pi', 'random', 'degrees', 'radians', 'acos', 'asin', 'atan'],
  ...['atan2', 'cos', 'sin', 'tan', 'acosh', 'asinh', 'atanh', 'cosh', 'sinh', 'tanh'],
  ...['length', 'octet_length', 'lower', 'upper', 'substr', 'substring', 'trim', 'ltrim', 'rtrim'],
  ...['replace', 'instr', 'printf', 'format', 'char', 'unicode', 'hex', 'unhex', 'quote', 'like', 'glob'],
  ...['concat', 'concat_ws', 'coalesce', 'ifnull', 'nullif', 'iif', 'if', 'typeof', 'sqlite_version'],
  ...['likely', 'unlikely', 'likelihood'],
  ...['date', 'time', 'datetime', 'julianday', 'strftime', 'unixepoch', 'timediff'],
  ...['json', 'json_extract', 'json_array', 'json_object', 'json_array_length', 'json_type', 'json_valid'],
  ...['json_quote', 'json_insert', 'json_replace', 'json_set', 'json_remove', 'json_patch', 'json_pretty'],
  ...['json_error_position', 'json_each', 'json_tree', 'json_group_array', 'json_group_object', '->', '->>'],
  ...['row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead'],
  ...['first_value', 'last_value', 'nth_value'],
];

export interface ScreenedQuery {
  /** Every name the text could use as a table or function, ASCII-lowercased (the child checks them). */
  names: string[];
  /** True when the parameters are written `?NNN` (bound by number), false for plain `?`. */
  numbered: boolean;
}

const READ_STARTS = new Set(['select', 'with', 'values']);

/** Throws SqlRefusal unless `sql` is one statement that starts as a read and names nothing private. */
export function screenQuery(sql: string): ScreenedQuery {
  if (sql.length > SQL_MAX_CHARS) {
    throw new SqlRefusal(
      `La consulta tiene ${sql.length} caracteres y el máximo es ${SQL_MAX_CHARS}: simplifícala.`,
    );
  }
  if (sql.includes('\0')) throw new SqlRefusal('La consulta contiene un carácter nulo (\\0): no se admite.');
  const tokens = tokenize(sql);
  if (tokens.length === 0) {
    throw new SqlRefusal('La consulta está vacía (o solo tiene comentarios): escribe una sentencia SELECT.');
  }

  let statements = 0;
  let open = false;
  for (const token of tokens) {
    if (token.kind === 'other' && token.text === ';') open = false;
    else if (!open) {
      open = true;
      statements++;
    }
  }
  if (statements > 1) {
    throw new SqlRefusal(
      `La consulta contiene ${statements} sentencias y solo se admite una única sentencia SELECT: ` +
        'quita el punto y coma y lo que le sigue.',
    );
  }

  const first = tokens[0]!;
  if (first.kind !== 'word' || !READ_STARTS.has(asciiLower(first.text))) {
    throw new SqlRefusal(
      `La sentencia empieza por ${first.text.slice(0, 40)} y consulta_sql solo admite SELECT, WITH … SELECT ` +
        'o VALUES: es una herramienta de analítica de solo lectura y nunca modifica datos.',
    );
  }

  const names = new Set<string>();
  const variables = new Set<'anonymous' | 'numbered' | 'named'>();
  for (const token of tokens) {
    if (token.kind === 'variable') {
      variables.add(token.text === '?' ? 'anonymous' : token.text.startsWith('?') ? 'numbered' : 'named');
      continue;
    }
    // SQLite takes a 'string' where only a name fits (FROM 'cursos'): strings count as names too.
    if (token.kind !== 'word' && token.kind !== 'quoted' && token.kind !== 'string') continue;
    const name = asciiLower(token.text);
    if (token.kind === 'string' && !/^[a-z0-9_]{1,64}$/.test(name)) continue;
    if (Object.hasOwn(PRIVATE_TABLES, name)) {
      throw new SqlRefusal(
        `La tabla ${name} no forma parte de la analítica: guarda respuestas. Usa las vistas preguntas e ` +
          'intentos (schema://tablas/{tabla} describe lo que se puede consultar).',
      );
    }
    if (name.startsWith('pragma_')) {
      throw new SqlRefusal(
        `${name} no está disponible en consulta_sql: las funciones pragma_* muestran detalles internos de ` +
          'la base de datos (como rutas de ficheros). El esquema está en el recurso schema://tablas/{tabla}.',
      );
    }
    names.add(name);
  }
  if (variables.has('named')) {
    throw new SqlRefusal(
      'Los parámetros con nombre (:x, @x, $x) no se admiten porque parametros es una lista: usa ? o ?1, ?2…',
    );
  }
  if (variables.has('anonymous') && variables.has('numbered')) {
    throw new SqlRefusal(
      'La consulta mezcla parámetros ? y ?N: usa solo ? (en orden) o solo ?1, ?2… (por número).',
    );
  }
  return { names: [...names], numbered: variables.has('numbered') };
}
