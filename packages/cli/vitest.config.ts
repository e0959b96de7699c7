import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// These tests pack every server once (global setup), then install and start what was packed: one file
// at a time, with room for npm and for six server start-ups per test.
export default mergeConfig(
  shared,
  defineConfig({
    test: {
      globalSetup: ['./test/global-setup.ts'],
      testTimeout: 120_000,
      hookTimeout: 300_000,
      fileParallelism: false,
    },
  }),
);
