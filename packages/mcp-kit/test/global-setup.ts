import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURE_BIN = resolve(here, '.build/fixture-server.cjs');

/** Bundles the fixture server once, the same way the apps are bundled, so tests spawn real built code. */
export default async function setup(): Promise<void> {
  mkdirSync(dirname(FIXTURE_BIN), { recursive: true });
  await build({
    entryPoints: [resolve(here, 'fixtures/fixture-server.ts')],
    outfile: FIXTURE_BIN,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    conditions: ['@code-cluster/source'],
    logLevel: 'warning',
  });
}
