import { randomUUID } from 'node:crypto';
import { defineTool, fenceUntrusted } from '@code-cluster/mcp-kit';
import {
  SQL_BYTE_LIMIT,
  SQL_MAX_CHARS,
  SQL_MAX_PARAMS,
  SQL_ROW_LIMIT,
  SQL_TIMEOUT_MS,
} from '@code-cluster/shared/academy';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';

/** Rows shown in the text block; all of them (up to the row limit) are in structuredContent. */
const TEXT_ROWS = 50;
const CELL_CHARS = 60;

export const consultaSql = defineTool({
  name: 'consulta_sql',
  title: 'Consulta SQL de analítica (solo lectura)',
  toolset: 'analitica',
  description:
    'Ejecuta UNA consulta SQL (SELECT, WITH … SELECT o VALUES) sobre los datos de la academia (cursos, ' +
    'lecciones, estudiantes, matriculas, avances, quizzes y las vistas preguntas e intentos, sin respuestas) y ' +
    'devuelve las filas. Úsala para analítica que las otras herramientas no cubren (agregados, comparativas, ' +
    'rankings, ventanas). Lee antes el recurso schema://tablas/{tabla} para conocer las columnas. Es de solo ' +
    `lectura: cualquier otra sentencia se rechaza. Límites: ${SQL_ROW_LIMIT} filas, ` +
    `${SQL_BYTE_LIMIT / 1_000_000} MB de resultado y ${SQL_TIMEOUT_MS / 1000} s por consulta, de una en una ` +
    'por sesión. Pasa los valores como parámetros ? (o ?1, ?2…) en parametros, nunca dentro del texto. El ' +
    'motor es SQLite; en una academia desplegada sobre PostgreSQL, el SQL es de PostgreSQL y los parámetros ' +
    'se escriben $1, $2…',
  input: z.strictObject({
    sql: z
      .string()
      .min(1)
      .max(SQL_MAX_CHARS)
      .describe(
        'Una única sentencia SELECT (o WITH … SELECT, VALUES) de SQLite, con ? para los valores ($1, $2… en PostgreSQL)',
      ),
    parametros: z
      .array(z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]))
      .max(SQL_MAX_PARAMS)
      .optional()
      .describe('Valores de los ? (o $N) en orden (true y false se enlazan como 1 y 0)'),
    limite: z
      .int()
      .min(1)
      .max(SQL_ROW_LIMIT)
      .optional()
      .describe(`Máximo de filas a devolver (1–${SQL_ROW_LIMIT}, por defecto ${SQL_ROW_LIMIT})`),
  }),
  output: z.object({
    columnas: z.array(z.string()),
    filas: z
      .array(z.array(z.union([z.string(), z.number(), z.null()])))
      .describe('Una lista por fila, con los valores en el orden de columnas'),
    num_filas: z.int(),
    truncado: z
      .boolean()
      .describe('true si faltan filas: solo llegan las primeras (motivo_truncado dice por qué)'),
    motivo_truncado: z
      .enum(['filas', 'bytes'])
      .optional()
      .describe('filas: la consulta tenía más de limite_filas; bytes: las filas superaban limite_bytes'),
    limite_filas: z.int(),
    limite_bytes: z.int().describe('Tamaño máximo de las filas en JSON, bytes'),
    bytes: z.int().describe('Tamaño de las filas en JSON, bytes'),
    ms: z.number().describe('Tiempo de ejecución, ms'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ sql, parametros = [], limite }, { deps, signal, logger }: AcademyToolContext) {
    const r = await deps.academy.query(
      { sql, params: parametros, session: sessionKey(logger), ...(limite ? { limit: limite } : {}) },
      signal,
    );
    const data = {
      columnas: r.columns,
      filas: r.rows,
      num_filas: r.row_count,
      truncado: r.truncated,
      ...(r.truncated_by
        ? { motivo_truncado: r.truncated_by === 'rows' ? ('filas' as const) : ('bytes' as const) }
        : {}),
      limite_filas: r.row_limit,
      limite_bytes: r.byte_limit,
      bytes: r.bytes,
      ms: r.elapsed_ms,
    };
    const head = !data.truncado
      ? `${data.num_filas} ${data.num_filas === 1 ? 'fila' : 'filas'} en ${data.ms} ms.`
      : data.motivo_truncado === 'bytes'
        ? `${data.num_filas} filas (RESULTADO TRUNCADO: las filas superan ${data.limite_bytes} bytes y solo llegan ` +
          'las primeras; pide menos columnas, acorta los textos con substr o agrega en SQL).'
        : `${data.num_filas} filas (RESULTADO TRUNCADO: la consulta devuelve más de ${data.limite_filas} filas y ` +
          'solo llegan las primeras; añade WHERE o GROUP BY, o pide menos con limite).';
    const shown = data.filas.slice(0, TEXT_ROWS);
    const more =
      data.filas.length > shown.length
        ? `\n(${data.filas.length - shown.length} filas más en structuredContent)`
        : '';
    return {
      text: `${head}\n${fenceUntrusted('filas de la consulta', table(data.columnas, shown))}${more}`,
      data,
    };
  },
});

/**
 * The kit gives each MCP session its own logger: its identity names the session, so the system can run one
 * query per session at a time and keep one session's slow queries from holding every worker. Random, so
 * servers sharing one remote academy system never share a key.
 */
const sessions = new WeakMap<object, string>();
function sessionKey(logger: object): string {
  let key = sessions.get(logger);
  if (!key) {
    key = randomUUID();
    sessions.set(logger, key);
  }
  return key;
}

/** A compact pipe table; cells on one line and cut to CELL_CHARS. */
function table(columns: string[], rows: Array<Array<string | number | null>>): string {
  const cell = (v: string | number | null) => {
    const text =
      v === null
        ? 'NULL'
        : String(v)
            .replace(/\s*\n\s*/g, ' ⏎ ')
            .replaceAll('|', '\\|');
    return text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS - 1)}…` : text;
  };
  return [columns.map(cell).join(' | '), ...rows.map((row) => row.map(cell).join(' | '))].join('\n');
}
