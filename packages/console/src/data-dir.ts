import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where the servers of a federated run keep what persists (their CODE_CLUSTER_DATA_DIR). */
export interface DataDir {
  path: string;
  /** Made for this run and removed by dispose(); false for a directory the user named. */
  temporary: boolean;
  /** Removes a temporary directory (call once every server is gone); leaves the user's alone. */
  dispose(): void;
}

/**
 * The user's `--data-dir` (created if missing, kept afterwards), or else a fresh directory under the OS's
 * temp dir: the demo then works on a machine with no setup and never leaves bookings or events behind in
 * the user's real data dir (`$XDG_DATA_HOME/code-cluster`).
 */
export function prepareDataDir(requested: string | undefined): DataDir {
  if (requested !== undefined) {
    const path = resolve(requested);
    mkdirSync(path, { recursive: true });
    return { path, temporary: false, dispose() {} };
  }
  const path = mkdtempSync(join(tmpdir(), 'code-console-'));
  return {
    path,
    temporary: true,
    dispose() {
      rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
