import { defineConfig } from 'vitest/config';

// Tests run against the TypeScript sources of workspace packages (the `@code-cluster/source` export
// condition); tests that spawn a server use its built bundle instead.
export default defineConfig({
  resolve: { conditions: ['@code-cluster/source', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['@code-cluster/source', 'node', 'import', 'default'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/dist/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
