import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG_TLE } from './catalog-data.js';

describe('embedded catalog', () => {
  it('is byte for byte the shipped data/satdt/catalog.tle (run scripts/embed-data.mjs after editing it)', () => {
    const file = readFileSync(new URL('../../data/satdt/catalog.tle', import.meta.url), 'utf8');
    expect(CATALOG_TLE).toBe(file);
  });
});
