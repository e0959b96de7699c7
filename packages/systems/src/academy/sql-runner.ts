import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { type SqlChildConfig, type SqlChildReply, sqlChildMain } from './sql-child.js';

export interface SqlRunnerOptions {
  /** The database file; the child opens it read-only and never sees the writer connection. */
  file: string;
  rowLimit: number;
  timeoutMs: number;
  onError?: (error: unknown) => void;
}

export type SqlRun =
  | {
      ok: true;
      columns: string[];
      rows: Array<Array<string | number | null>>;
      truncated: boolean;
      elapsedMs: number;
    }
  | { ok: false; kind: 'refused' | 'error' | 'timeout'; message: string };

/** How long a fresh child may take to start and say it is ready. */
const STARTUP_MS = 10_000;

/**
 * Runs analytics queries in one warm child process, one at a time. better-sqlite3 is synchronous and has
 * no statement timeout, and a worker thread cannot be stopped mid-query, but a process can be killed at
 * once: at the deadline (or when the caller aborts) the child is killed and a new one started.
 *
 * The child runs under Node's permission model with read access only: it can neither write a file through
 * Node nor start a process, on top of opening the database read-only.
 */
export class ReadOnlySqlRunner {
  private child: Promise<ChildProcess> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SqlRunnerOptions) {}

  /** Queues one query; resolves with its rows or why it did not run, never rejects but on abort. */
  run(sql: string, params: readonly unknown[], signal?: AbortSignal, limit?: number): Promise<SqlRun> {
    const job = this.queue.then(() => this.execute(sql, params, limit ?? this.options.rowLimit, signal));
    this.queue = job.catch(() => undefined);
    return job;
  }

  /** Starts the child ahead of the first query, so that one does not wait for it. */
  warm(): void {
    if (!this.closed) this.child ??= this.start();
  }

  close(): void {
    this.closed = true;
    void this.child?.then((c) => c.kill('SIGKILL')).catch(() => undefined);
    this.child = undefined;
  }

  private async execute(
    sql: string,
    params: readonly unknown[],
    limit: number,
    signal?: AbortSignal,
  ): Promise<SqlRun> {
    signal?.throwIfAborted();
    if (this.closed) return { ok: false, kind: 'error', message: 'El ejecutor de consultas está cerrado.' };
    this.child ??= this.start();
    const child = await this.child;
    const id = this.nextId++;
    const started = performance.now();
    return new Promise<SqlRun>((resolve, reject) => {
      const finish = (result: SqlRun | Error, replace: boolean) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (replace) this.replace(child);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const onMessage = (reply: SqlChildReply) => {
        if (reply.id !== id) return;
        const elapsedMs = Math.round((performance.now() - started) * 10) / 10;
        finish(
          reply.ok ? { ...reply, elapsedMs } : { ok: false, kind: reply.kind, message: reply.message },
          false,
        );
      };
      const onExit = () =>
        finish(
          { ok: false, kind: 'error', message: 'El proceso de consultas terminó de forma inesperada.' },
          true,
        );
      const onAbort = () => finish(signal?.reason ?? new Error('aborted'), true);
      const timer = setTimeout(
        () =>
          finish(
            {
              ok: false,
              kind: 'timeout',
              message:
                `La consulta superó el límite de ${this.options.timeoutMs / 1000} s y se canceló. ` +
                'Acota la consulta (WHERE, LIMIT, menos uniones) o evita CTE recursivas sin fin.',
            },
            true,
          ),
        this.options.timeoutMs,
      );
      child.on('message', onMessage);
      child.once('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.send({ id, sql, params, limit });
    });
  }

  /** Kills a child that ran too long (or died) and starts a warm one for the next query. */
  private replace(child: ChildProcess): void {
    child.kill('SIGKILL');
    this.child = undefined;
    this.warm();
  }

  private start(): Promise<ChildProcess> {
    const config: SqlChildConfig = {
      file: this.options.file,
      betterSqlite3: usesBuiltinSqlite() ? null : resolveBetterSqlite3(),
      rowLimit: this.options.rowLimit,
      deadlineMs: this.options.timeoutMs,
    };
    const child = spawn(
      process.execPath,
      [...permissionFlags(), '-e', `(${sqlChildMain.toString()})(${JSON.stringify(config)})`],
      // No inherited environment: the child needs none, and gets no credential or setting by accident.
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { NODE_NO_WARNINGS: '1' } },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2_000);
    });
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL' && !this.closed) {
        this.options.onError?.(new Error(`analytics child exited (${code ?? signal}): ${stderr.trim()}`));
      }
    });
    // The server must be able to exit while a warm child idles.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    const ready = new Promise<ChildProcess>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`analytics child did not start within ${STARTUP_MS} ms: ${stderr.trim()}`));
      }, STARTUP_MS);
      child.once('message', () => {
        clearTimeout(timer);
        resolve(child);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`analytics child exited at start (${code}): ${stderr.trim()}`));
      });
    });
    ready.catch(() => {
      this.child = undefined;
    });
    return ready;
  }
}

/** Mirrors the storage seam's choice: `node:sqlite` where the runtime has it, unless told otherwise. */
function usesBuiltinSqlite(): boolean {
  if (process.env.CODE_CLUSTER_SQLITE_DRIVER === 'better-sqlite3') return false;
  try {
    return process.getBuiltinModule?.('node:sqlite') !== undefined;
  } catch {
    return false;
  }
}

function resolveBetterSqlite3(): string {
  return (typeof require === 'function' ? require : createRequire(import.meta.url)).resolve('better-sqlite3');
}

/** Read-only file access, no child processes; addons (better-sqlite3) and the watchdog thread allowed. */
function permissionFlags(): string[] {
  const flag = process.allowedNodeEnvironmentFlags.has('--permission')
    ? '--permission'
    : '--experimental-permission';
  return [flag, '--allow-fs-read=*', '--allow-addons', '--allow-worker'];
}
