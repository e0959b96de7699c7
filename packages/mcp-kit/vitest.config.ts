import { mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.js';

export default mergeConfig(shared, { test: { globalSetup: ['test/global-setup.ts'] } });
