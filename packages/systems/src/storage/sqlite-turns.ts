import type { SqlDatabase } from './sqlite.js';

/** What an async store needs of its one SQLite connection: its queries in turn, and transactions. */
export interface SqliteTurns<Q> {
  /** Every query of `queries`, each waiting until the calls queued before it (a transaction) are done. */
  queries: Q;
  /** Runs `work` between BEGIN IMMEDIATE and COMMIT (ROLLBACK if it throws), given the queries unqueued. */
  transaction<T>(work: (tx: Q) => Promise<T>): Promise<T>;
  /** Closes the connection after the calls queued before. */
  close(): Promise<void>;
}

/**
 * The stores' interfaces are async (PostgreSQL answers later), the SQLite driver is synchronous, and a
 * transaction's work awaits between its statements: without turns, another request's call would run on the
 * connection inside that transaction (and be rolled back with it). So every call of the store, and every
 * transaction as a whole, waits its turn. IMMEDIATE takes the write lock at BEGIN, so another process's
 * writer waits for it (busy_timeout).
 */
export function sqliteTurns<Q extends object>(db: SqlDatabase, queries: Q): SqliteTurns<Q> {
  let tail: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const turn = tail.then(work);
    tail = turn.catch(() => undefined);
    return turn;
  };
  const queued = Object.fromEntries(
    Object.entries(queries).map(([name, call]) => [
      name,
      (...args: unknown[]) => inTurn(() => (call as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as Q;
  return {
    queries: queued,
    transaction: (work) =>
      inTurn(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(queries);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          try {
            db.exec('ROLLBACK');
          } catch {
            // SQLite already rolled back on its own (SQLITE_FULL, I/O errors): the first error says why.
          }
          throw error;
        }
      }),
    close: () => inTurn(async () => db.close()),
  };
}
