import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The bundle of the console's sources the tests spawn as a real process (Node 20 cannot run .ts). It is
 * rebuilt on every run, so tests never see a stale `pnpm build`. It sits directly in dist/ on purpose:
 * testkit's serverBin() finds the repository root three levels above the file that contains it.
 */
export const CLI_BUNDLE = join(packageDir, 'dist', 'code-console.test.mjs');

/**
 * Workspace packages are bundled from source; every other package stays an import, resolved at run time
 * like the tsc build's. testkit's root entry also exports a vitest suite the console never uses: marking
 * vitest free of side effects lets esbuild drop that import instead of loading vitest into the CLI.
 */
const externalDependencies: Plugin = {
  name: 'external-dependencies',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@code-cluster/')) return undefined;
      return { path: args.path, external: true, sideEffects: !/^vitest(\/|$)/.test(args.path) };
    });
  },
};

export default async function setup(): Promise<void> {
  mkdirSync(dirname(CLI_BUNDLE), { recursive: true });
  await build({
    entryPoints: [join(packageDir, 'src', 'main.ts')],
    outfile: CLI_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@code-cluster/source'],
    plugins: [externalDependencies],
    logLevel: 'warning',
  });
}
