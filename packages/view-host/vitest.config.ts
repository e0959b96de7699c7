import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

// The browser tests are this package's only project: a machine without Chromium skips them with one line.
export default mergeConfig(shared, defineConfig({ test: { name: 'browser', testTimeout: 60_000 } }));
