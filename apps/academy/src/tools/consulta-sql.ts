import { defineTool } from '@code-cluster/mcp-kit';
import { SQL_MAX_CHARS, SQL_MAX_PARAMS, SQL_ROW_LIMIT, SQL_TIMEOUT_MS } from '@code-cluster/shared/academy';
import { z } from 'zod';
import type { AcademyToolContext } from '../deps.js';
import { asData } from '../format.js';

/** Rows shown in the text block; all of them (up to the row limit) are in structuredContent. */
const TEXT_ROWS = 50;
const CELL_CHARS = 60;

export const consultaSql = defineTool({
  name: 'consulta_sql',
  title: 'Consulta SQL de analítica (solo lectura)',
  description:
    'Ejecuta UNA consulta SELECT (o WITH … SELECT) de SQLite sobre los datos de la academia (cursos, ' +
    'lecciones, estudiantes, matriculas, avances, quizzes, preguntas, intentos) y devuelve las filas. Úsala ' +
    'para analítica que las otras herramientas no cubren (agregados, comparativas, rankings). Lee antes el ' +
    'recurso schema://tablas/{tabla} para conocer las columnas. Es de solo lectura: cualquier otra sentencia ' +
    `se rechaza. Límites: ${SQL_ROW_LIMIT} filas y ${SQL_TIMEOUT_MS / 1000} s por consulta. Pasa los valores ` +
    'como parámetros ? en parametros, nunca dentro del texto.',
  input: z.strictObject({
    sql: z
      .string()
      .min(1)
      .max(SQL_MAX_CHARS)
      .describe('Una única sentencia SELECT de SQLite, con ? para los valores'),
    parametros: z
      .array(z.union([z.string().max(1_000), z.number(), z.boolean(), z.null()]))
      .max(SQL_MAX_PARAMS)
      .optional()
      .describe('Valores de los ? en orden'),
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
      .describe(`true si la consulta tenía más de ${SQL_ROW_LIMIT} filas y solo llegan las primeras`),
    limite_filas: z.int(),
    ms: z.number().describe('Tiempo de ejecución, ms'),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ sql, parametros = [], limite }, { deps, signal }: AcademyToolContext) {
    const r = await deps.academy.query(
      { sql, params: parametros, ...(limite ? { limit: limite } : {}) },
      signal,
    );
    const data = {
      columnas: r.columns,
      filas: r.rows,
      num_filas: r.row_count,
      truncado: r.truncated,
      limite_filas: r.row_limit,
      ms: r.elapsed_ms,
    };
    const head = data.truncado
      ? `${data.num_filas} filas (RESULTADO TRUNCADO: la consulta devuelve más de ${data.limite_filas} filas y solo ` +
        'llegan las primeras; añade WHERE o GROUP BY, o pide menos con limite).'
      : `${data.num_filas} ${data.num_filas === 1 ? 'fila' : 'filas'} en ${data.ms} ms.`;
    const shown = data.filas.slice(0, TEXT_ROWS);
    const more =
      data.filas.length > shown.length
        ? `\n(${data.filas.length - shown.length} filas más en structuredContent)`
        : '';
    return { text: `${head}\n${asData('filas de la consulta', table(data.columnas, shown))}${more}`, data };
  },
});

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
