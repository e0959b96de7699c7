import { createRequire } from 'node:module';
import { SQL_MAX_CHARS } from '@code-cluster/shared/academy';
import { SqlRefusal } from './sql-guard.js';
import { PRIVATE_TABLES } from './store.js';

/**
 * The screening of `consulta_sql` on PostgreSQL, with PostgreSQL's own grammar (libpg-query, the server's
 * parser compiled to WebAssembly): exactly one statement, a SELECT (VALUES and TABLE are SELECTs too) with
 * no INTO and no locking clause, no data-modifying statement anywhere in the tree (a CTE that deletes),
 * no private table, and no call of a function with side effects. It is one wall of several: the
 * SELECT-only role, the READ ONLY transaction and the connection thrown away after each query stand behind.
 */

/**
 * Functions no query may call, anywhere in the tree: they sleep, talk to other servers or sessions, take
 * locks, read files, change settings or sequences, write large objects (READ ONLY lets those pass on
 * PostgreSQL 15), or run SQL given as text (query_to_xml, ts_stat) past this screen.
 */
export const DENIED_FUNCTIONS: readonly RegExp[] = [
  /^pg_sleep/,
  /^dblink/,
  /^lo_/,
  /^lo(read|write)$/,
  /^pg_notify$/,
  /^pg_(try_)?advisory/,
  /^pg_terminate_backend$/,
  /^pg_cancel_backend$/,
  /^pg_signal_backend$/,
  /^set_config$/,
  /_to_xml/,
  /^query_to_xml/,
  /^ts_stat$/,
  /^pg_read_/,
  /^pg_ls_/,
  /^pg_stat_file$/,
  /^pg_file_/,
  /^pg_reload_conf$/,
  /^pg_rotate_logfile/,
  /^pg_log_backend_memory_contexts$/,
  /^txid_current/,
  /^pg_current_xact_id/,
  /^pg_export_snapshot$/,
  /^(nextval|setval|currval|lastval)$/,
  /^pg_logical_/,
  /^pg_replication_/,
  /^pg_(create|drop|copy)_.*replication_slot$/,
  /^pg_replication_slot_advance$/,
  /^pg_(backup_start|backup_stop|start_backup|stop_backup|switch_wal|create_restore_point|promote)$/,
  /^pg_wal_replay_/,
  /^pg_stat_reset/,
  /^pg_stat_clear_snapshot$/,
  /^pg_import_system_collations$/,
  /^(brin_summarize|brin_desummarize|gin_clean_pending_list)/,
  /^pg_prewarm/,
];

const STATEMENT_NAMES: Readonly<Record<string, string>> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  CopyStmt: 'COPY',
  DoStmt: 'DO',
  PrepareStmt: 'PREPARE',
  ExecuteStmt: 'EXECUTE',
  DeallocateStmt: 'DEALLOCATE',
  VariableSetStmt: 'SET o RESET',
  VariableShowStmt: 'SHOW',
  TransactionStmt: 'una orden de transacción (BEGIN, COMMIT…)',
  ExplainStmt: 'EXPLAIN',
  CallStmt: 'CALL',
  CreateStmt: 'CREATE TABLE',
  CreateTableAsStmt: 'CREATE TABLE AS',
  DropStmt: 'DROP',
  AlterTableStmt: 'ALTER TABLE',
  TruncateStmt: 'TRUNCATE',
  GrantStmt: 'GRANT o REVOKE',
  GrantRoleStmt: 'GRANT o REVOKE de roles',
  LockStmt: 'LOCK',
  ListenStmt: 'LISTEN',
  NotifyStmt: 'NOTIFY',
  DeclareCursorStmt: 'DECLARE CURSOR',
  VacuumStmt: 'VACUUM o ANALYZE',
  CreateFunctionStmt: 'CREATE FUNCTION',
  ViewStmt: 'CREATE VIEW',
  IndexStmt: 'CREATE INDEX',
  CheckPointStmt: 'CHECKPOINT',
  DiscardStmt: 'DISCARD',
  LoadStmt: 'LOAD',
  RenameStmt: 'ALTER … RENAME',
  CreateTrigStmt: 'CREATE TRIGGER',
  ReindexStmt: 'REINDEX',
  CreateSchemaStmt: 'CREATE SCHEMA',
  CreateExtensionStmt: 'CREATE EXTENSION',
  CreateRoleStmt: 'CREATE ROLE',
  AlterRoleStmt: 'ALTER ROLE',
  DropRoleStmt: 'DROP ROLE',
  AlterSystemStmt: 'ALTER SYSTEM',
  RefreshMatViewStmt: 'REFRESH MATERIALIZED VIEW',
  ClusterStmt: 'CLUSTER',
  CommentStmt: 'COMMENT',
};

const DATA_MODIFYING = ['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt'];

type Parse = (sql: string) => Promise<{ stmts: Array<{ stmt: Record<string, unknown> }> }>;
let parser: Promise<Parse> | undefined;

/**
 * libpg-query, loaded (its WebAssembly compiled) on first use. Through `require`, as the storage seam loads
 * better-sqlite3: a bundled server keeps it external (its .wasm sits next to its own module) and runs in a
 * vm script, where a dynamic import() has no loader.
 */
function loadParser(): Promise<Parse> {
  parser ??= (async () => {
    const module = (typeof require === 'function' ? require : createRequire(import.meta.url))(
      'libpg-query',
    ) as typeof import('libpg-query');
    await module.loadModule();
    return module.parse as unknown as Parse;
  })();
  return parser;
}

/** Warms the parser ahead of the first query (the WebAssembly module takes a moment to compile). */
export function warmPgParser(): Promise<unknown> {
  return loadParser();
}

/**
 * Throws SqlRefusal (Spanish, naming what was refused) unless `sql` is one plain SELECT that calls nothing
 * with side effects and names no private table. Resolves when the query may run.
 */
export async function screenPgQuery(sql: string): Promise<void> {
  if (sql.length > SQL_MAX_CHARS) {
    throw new SqlRefusal(
      `La consulta tiene ${sql.length} caracteres y el máximo es ${SQL_MAX_CHARS}: simplifícala.`,
    );
  }
  if (sql.includes('\0')) throw new SqlRefusal('La consulta contiene un carácter nulo (\\0): no se admite.');
  const parse = await loadParser();
  let tree: Awaited<ReturnType<Parse>>;
  try {
    tree = await parse(sql);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/cannot be empty/i.test(message)) throw empty();
    const hint = /\?/.test(sql)
      ? ' En PostgreSQL los parámetros se escriben $1, $2… (no ?): cada $N toma el valor N de parametros.'
      : '';
    throw new SqlRefusal(
      `La consulta no es SQL válido de PostgreSQL: ${message.slice(0, 200)}.${hint} consulta_sql solo ` +
        'admite una sentencia SELECT.',
    );
  }
  if (tree.stmts.length === 0) throw empty();
  if (tree.stmts.length > 1) {
    throw new SqlRefusal(
      `La consulta contiene ${tree.stmts.length} sentencias y solo se admite una única sentencia SELECT: ` +
        'quita el punto y coma y lo que le sigue.',
    );
  }
  const [kind] = Object.keys(tree.stmts[0]!.stmt);
  if (kind !== 'SelectStmt') {
    throw new SqlRefusal(
      `La sentencia es ${STATEMENT_NAMES[kind ?? ''] ?? kind} y consulta_sql solo admite SELECT, WITH … SELECT ` +
        'o VALUES: es una herramienta de analítica de solo lectura y nunca modifica datos.',
    );
  }
  judgeTree(tree.stmts[0]!.stmt);
}

const empty = () =>
  new SqlRefusal('La consulta está vacía (o solo tiene comentarios): escribe una sentencia SELECT.');

/** Walks the whole parse tree (iteratively: a deeply nested query must not overflow the stack). */
function judgeTree(root: unknown): void {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    const record = node as Record<string, unknown>;
    if ('intoClause' in record) {
      throw new SqlRefusal(
        'SELECT … INTO crea una tabla con el resultado y consulta_sql no escribe nada: quita el INTO.',
      );
    }
    if (Array.isArray(record.lockingClause) && record.lockingClause.length > 0) {
      throw new SqlRefusal(
        'La consulta pide bloquear filas (FOR UPDATE / FOR SHARE) y consulta_sql solo lee: quita la cláusula FOR …',
      );
    }
    for (const key of DATA_MODIFYING) {
      if (key in record) {
        throw new SqlRefusal(
          `La consulta contiene un ${STATEMENT_NAMES[key]} (por ejemplo en un WITH) y consulta_sql solo ` +
            'ejecuta lecturas: ninguna parte de la consulta puede modificar datos.',
        );
      }
    }
    const call = record.FuncCall as { funcname?: Array<{ String?: { sval?: string } }> } | undefined;
    if (call) {
      const name = (call.funcname?.at(-1)?.String?.sval ?? '').toLowerCase();
      if (DENIED_FUNCTIONS.some((pattern) => pattern.test(name))) {
        throw new SqlRefusal(
          `La función ${name} no está permitida en consulta_sql: tiene efectos fuera de la consulta ` +
            '(esperas, bloqueos, avisos, ficheros, objetos grandes, secuencias, ajustes de la sesión o ' +
            'conexiones a otros servidores). Usa funciones de lectura: agregados, texto, números, fechas, JSON.',
        );
      }
    }
    const relation = record.RangeVar as { relname?: string } | undefined;
    const table = relation?.relname?.toLowerCase();
    if (table && Object.hasOwn(PRIVATE_TABLES, table)) {
      throw new SqlRefusal(
        `La tabla ${table} no forma parte de la analítica: guarda respuestas. Usa las vistas preguntas e ` +
          'intentos (schema://tablas/{tabla} describe lo que se puede consultar).',
      );
    }
    for (const value of Object.values(record))
      if (typeof value === 'object' && value !== null) pending.push(value);
  }
}
