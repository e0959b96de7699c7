import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';

const resultsDir = process.env.CODE_CLUSTER_TEST_RESULTS;

// Tests run against the TypeScript sources of workspace packages (the `@code-cluster/source` export
// condition); tests that spawn a server use its built bundle instead.
export default defineConfig({
  resolve: { conditions: ['@code-cluster/source', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@code-cluster/source', 'node', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/dist/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The workspace runner (scripts/bootstrap.mjs) adds up every package's JSON report into one line.
    reporters: resultsDir
      ? ['default', ['json', { outputFile: `${resultsDir}/${basename(process.cwd())}.json` }]]
      : ['default'],
  },
});
