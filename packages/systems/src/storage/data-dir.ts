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
