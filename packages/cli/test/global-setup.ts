import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where `npm run pack` wrote this run's tarballs, bundles and registry entries. */
    packDir: string;
  }
}

/** Packs once for every test file, exactly as `npm run pack` does (the workspace is built by then). */
export default function setup(project: TestProject): () => void {
  const packDir = mkdtempSync(join(tmpdir(), 'code-cluster-pack-'));
  const result = spawnSync(process.execPath, ['scripts/pack.mjs', '--no-build', '--out', packDir], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`npm run pack failed:\n${result.stderr}`);
  project.provide('packDir', packDir);
  return () => rmSync(packDir, { recursive: true, force: true });
}
