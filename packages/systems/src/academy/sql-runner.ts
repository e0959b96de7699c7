import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { AnalyticsEngine } from './analytics.js';
import { type SqlChildConfig, type SqlChildReply, type SqlChildRequest, sqlChildMain } from './sql-child.js';
import { ALLOWED_FUNCTIONS, SqlRefusal, screenQuery } from './sql-guard.js';
import { PRIVATE_TABLES } from './store.js';

export interface SqlRunnerOptions {
  /** The database file; the children open it read-only and never see the writer connection. */
  file: string;
  rowLimit: number;
  byteLimit: number;
  timeoutMs: number;
  /** Children running queries at once (default 2). */
  poolSize?: number;
  /** Queries one session may have running or waiting (default 4); one of them runs at a time. */
  perSession?: number;
  /** Resident memory a child may reach before it kills itself (default 256 MiB). */
  maxRssBytes?: number;
  onError?: (error: unknown) => void;
}

export interface SqlJob {
  sql: string;
  params: Array<string | number | null>;
  numbered: boolean;
  names: string[];
  limit: number;
  /** Who asks (an MCP session); queries of one session never hold more than one child. */
  session?: string;
}

export type SqlRun =
  | {
      ok: true;
      columns: string[];
      rows: Array<Array<string | number | null>>;
      truncated: false | 'rows' | 'bytes';
      bytes: number;
      elapsedMs: number;
    }
  | { ok: false; kind: 'guard' | 'refused' | 'error' | 'timeout' | 'busy' | 'memory'; message: string };

/** consulta_sql on SQLite: the token screen (sql-guard.ts), then the read-only children of `runner`. */
export function sqliteAnalytics(runner: ReadOnlySqlRunner): AnalyticsEngine {
  return {
    dialect: 'SQLite',
    query: async (request, signal) => {
      let screened: ReturnType<typeof screenQuery>;
      try {
        screened = screenQuery(request.sql);
      } catch (error) {
        if (error instanceof SqlRefusal) return { ok: false, kind: 'guard', message: error.message };
        throw error;
      }
      return runner.run({ ...request, numbered: screened.numbered, names: screened.names }, signal);
    },
    close: () => runner.close(),
  };
}

/** How long a fresh child may take to start and say it is ready. */
const STARTUP_MS = 10_000;
const DEFAULT_POOL = 2;
const DEFAULT_PER_SESSION = 4;
const DEFAULT_MAX_RSS = 256 * 1024 * 1024;

interface Slot {
  child: Promise<ChildProcess> | undefined;
  busy: boolean;
}

interface Waiting {
  job: SqlJob;
  signal: AbortSignal | undefined;
  resolve: (run: SqlRun) => void;
  reject: (error: unknown) => void;
  onAbort: () => void;
}

/**
 * Runs analytics queries in a small pool of warm child processes. better-sqlite3 is synchronous and has no
 * statement timeout, and a worker thread cannot be stopped mid-query, but a process can be killed at once:
 * at the deadline (or when the caller aborts) the child is killed and a new one started.
 *
 * Fairness: each session runs one query at a time and may queue only a few more; free children go to the
 * sessions in turn. A session sending runaway queries holds one child at most, so another session's
 * `SELECT 1` runs on the next one without waiting for the deadline.
 *
 * The children run under Node's permission model with read access only: they can neither write a file
 * through Node nor start a process, on top of opening the database read-only.
 */
export class ReadOnlySqlRunner {
  private readonly slots: Slot[];
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly running = new Map<string, number>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SqlRunnerOptions) {
    this.slots = Array.from({ length: Math.max(1, options.poolSize ?? DEFAULT_POOL) }, () => ({
      child: undefined,
      busy: false,
    }));
  }

  /** Queues one query; resolves with its rows or why it did not run, never rejects but on abort. */
  run(job: SqlJob, signal?: AbortSignal): Promise<SqlRun> {
    signal?.throwIfAborted();
    if (this.closed) {
      return Promise.resolve({ ok: false, kind: 'error', message: 'El ejecutor de consultas está cerrado.' });
    }
    const session = job.session ?? '';
    const queue = this.waiting.get(session) ?? [];
    const held = queue.length + (this.running.get(session) ?? 0);
    const limit = this.options.perSession ?? DEFAULT_PER_SESSION;
    if (held >= limit) {
      return Promise.resolve({
        ok: false,
        kind: 'busy',
        message:
          `Esta sesión ya tiene ${held} consultas en curso o en espera (máximo ${limit}; se ejecutan de una en ` +
          'una): espera a que terminen antes de enviar más.',
      });
    }
    return new Promise<SqlRun>((resolve, reject) => {
      const entry: Waiting = {
        job,
        signal,
        resolve,
        reject,
        onAbort: () => {
          const list = this.waiting.get(session);
          const at = list?.indexOf(entry) ?? -1;
          if (at < 0) return;
          list!.splice(at, 1);
          if (list!.length === 0) this.waiting.delete(session);
          reject(signal?.reason ?? new Error('aborted'));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      queue.push(entry);
      // Re-inserted at the end: the Map's order is the turn in which sessions get a free child.
      this.waiting.delete(session);
      this.waiting.set(session, queue);
      this.pump();
    });
  }

  /** Starts one child ahead of the first query, so that one does not wait for it. */
  warm(): void {
    const slot = this.slots[0]!;
    if (!this.closed) slot.child ??= this.start(slot);
  }

  close(): void {
    this.closed = true;
    for (const slot of this.slots) {
      void slot.child?.then((c) => c.kill('SIGKILL')).catch(() => undefined);
      slot.child = undefined;
    }
    for (const [, list] of this.waiting) {
      for (const entry of list)
        entry.resolve({ ok: false, kind: 'error', message: 'El ejecutor de consultas está cerrado.' });
    }
    this.waiting.clear();
  }

  /** Hands free children to waiting sessions, one query per session at a time, sessions in turn. */
  private pump(): void {
    for (const slot of this.slots) {
      if (slot.busy || this.closed) continue;
      const session = [...this.waiting.keys()].find((s) => (this.running.get(s) ?? 0) === 0);
      if (session === undefined) return;
      const list = this.waiting.get(session)!;
      const entry = list.shift()!;
      this.waiting.delete(session);
      if (list.length > 0) this.waiting.set(session, list);
      entry.signal?.removeEventListener('abort', entry.onAbort);
      slot.busy = true;
      this.running.set(session, (this.running.get(session) ?? 0) + 1);
      this.execute(slot, entry.job, entry.signal)
        .then(entry.resolve, entry.reject)
        .finally(() => {
          slot.busy = false;
          const left = (this.running.get(session) ?? 1) - 1;
          if (left > 0) this.running.set(session, left);
          else this.running.delete(session);
          this.pump();
        });
    }
  }

  private async execute(slot: Slot, job: SqlJob, signal?: AbortSignal): Promise<SqlRun> {
    signal?.throwIfAborted();
    slot.child ??= this.start(slot);
    const child = await slot.child;
    // The caller may have given up while a cold child started.
    signal?.throwIfAborted();
    const id = this.nextId++;
    const started = performance.now();
    return new Promise<SqlRun>((resolve, reject) => {
      const finish = (result: SqlRun | Error, replace: boolean) => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        if (replace) this.replace(slot, child);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const onMessage = (reply: SqlChildReply) => {
        if (reply.id !== id) return;
        const elapsedMs = Math.round((performance.now() - started) * 10) / 10;
        finish(
          reply.ok
            ? {
                ok: true,
                columns: reply.columns,
                rows: reply.rows,
                truncated: reply.truncated,
                bytes: reply.bytes,
                elapsedMs,
              }
            : { ok: false, kind: reply.kind, message: reply.message },
          false,
        );
      };
      const onExit = (_code: number | null, exitSignal: NodeJS.Signals | null) =>
        finish(
          exitSignal === 'SIGTERM'
            ? {
                ok: false,
                kind: 'memory',
                message:
                  'La consulta necesitó demasiada memoria y se canceló: acota los valores que construye ' +
                  '(printf, replace, concatenaciones en CTE recursivas) o el número de filas.',
              }
            : { ok: false, kind: 'error', message: 'El proceso de consultas terminó de forma inesperada.' },
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
      const request: SqlChildRequest = { id, ...job };
      child.send(request);
    });
  }

  /** Kills a child that ran too long (or died) and starts a warm one for the next query. */
  private replace(slot: Slot, child: ChildProcess): void {
    child.kill('SIGKILL');
    slot.child = this.closed ? undefined : this.start(slot);
  }

  private start(slot: Slot): Promise<ChildProcess> {
    const config: SqlChildConfig = {
      file: this.options.file,
      betterSqlite3: usesBuiltinSqlite() ? null : resolveBetterSqlite3(),
      rowLimit: this.options.rowLimit,
      byteLimit: this.options.byteLimit,
      deadlineMs: this.options.timeoutMs,
      maxRssBytes: this.options.maxRssBytes ?? DEFAULT_MAX_RSS,
      allowedFunctions: ALLOWED_FUNCTIONS,
      hiddenColumns: PRIVATE_TABLES,
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
      if (code !== 0 && signal !== 'SIGKILL' && signal !== 'SIGTERM' && !this.closed) {
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
      if (slot.child === ready) slot.child = undefined;
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
