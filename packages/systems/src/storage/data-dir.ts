import { mkdirSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where systems keep what must persist: `$CODE_CLUSTER_DATA_DIR`, else the XDG data dir
 * (`$XDG_DATA_HOME/code-cluster`, by default `~/.local/share/code-cluster`).
 */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODE_CLUSTER_DATA_DIR) return resolve(env.CODE_CLUSTER_DATA_DIR);
  const base = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'code-cluster');
}

/** What `checkDataDir` found: nothing wrong, or a problem with one line for the operator. */
export type DataDirCheck =
  | { ok: true }
  | { ok: false; problem: 'sin_escritura' | 'disco_lleno'; line: string };

/** Below this much free space the disk is as good as full for a database that must commit durably. */
const MIN_FREE_BYTES = 1024 * 1024;

/**
 * Whether the data dir can hold the systems' databases, checked once at start-up: created if missing, a
 * probe file written and removed, and the free space of its file system. The answer's `line` names the
 * dir and the fix, for the operator's log.
 */
export function checkDataDir(dir: string): DataDirCheck {
  const probe = join(dir, `.write-probe-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, 'x');
    unlinkSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOSPC' || code === 'EDQUOT') return full(dir, 0);
    return {
      ok: false,
      problem: 'sin_escritura',
      line:
        `the data dir ${dir} is not writable (${code}): give this user write access to it, or set ` +
        'CODE_CLUSTER_DATA_DIR to a writable directory',
    };
  }
  try {
    const stats = statfsSync(dir);
    const free = stats.bavail * stats.bsize;
    if (free < MIN_FREE_BYTES) return full(dir, free);
  } catch {
    // No statfs for this file system: only the probe speaks.
  }
  return { ok: true };
}

function full(dir: string, free: number): DataDirCheck {
  return {
    ok: false,
    problem: 'disco_lleno',
    line:
      `the disk holding the data dir ${dir} is full (${free} bytes free): free some space there, or set ` +
      'CODE_CLUSTER_DATA_DIR to a directory on another disk; reads still work, every write will fail',
  };
}

/**
 * The start-up check of every server that runs an embedded system with state: a problem goes to the
 * operator's log at ERROR, once. Returns false when the server must not start: a dir that cannot be
 * written fails every call, reads included (WAL needs its -shm file beside the database); a full disk still
 * serves reads, so it only warns.
 */
export function dataDirUsable(logError: (line: string) => void, dir: string = dataDir()): boolean {
  const check = checkDataDir(dir);
  if (check.ok) return true;
  logError(check.line);
  return check.problem !== 'sin_escritura';
}

/** A system's own file in the data dir (`hub.db`, `lab.db`): where it persists unless told otherwise. */
export function dataFile(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), name);
}
