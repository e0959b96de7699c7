import { MAP_CELLS } from '@code-cluster/shared/roverdt';
import { describe, expect, it } from 'vitest';
import { summarizeMap } from './overview.js';
import { DEFAULT_SEED, generateTerrain, slopeDeg, terrainFor, terrainFromRows } from './terrain.js';

describe('terrain', () => {
  it('is a pure function of the seed: the same seed gives the same map, another seed another map', () => {
    const a = generateTerrain(7);
    const b = generateTerrain(7);
    const c = generateTerrain(8);
    expect(a.width).toBeGreaterThanOrEqual(256);
    expect(a.height).toBe(a.width);
    expect(Buffer.from(a.elevation.buffer).equals(Buffer.from(b.elevation.buffer))).toBe(true);
    expect(Buffer.from(a.obstacle).equals(Buffer.from(b.obstacle))).toBe(true);
    expect(Buffer.from(a.hazard).equals(Buffer.from(b.hazard))).toBe(true);
    expect(a.craters).toEqual(b.craters);
    expect(Buffer.from(a.elevation.buffer).equals(Buffer.from(c.elevation.buffer))).toBe(false);
  });

  it('keeps the reference map fixed (the course material describes it)', () => {
    const t = terrainFor(DEFAULT_SEED);
    const summary = summarizeMap(t, 20);
    expect(summary).toMatchObject({
      seed: DEFAULT_SEED,
      width: MAP_CELLS,
      height: MAP_CELLS,
      cell_size_m: 1,
      craters: 11,
      obstacle_cells: 1453,
      elevation_min_m: -10.1,
      elevation_max_m: 12.77,
    });
    expect(summary.overview.rows).toHaveLength(32);
    expect(summary.overview.rows.every((row) => row.length === 32)).toBe(true);
  });

  it('is mostly drivable, with rocks, craters and hidden sand, and sand never on a rock', () => {
    const t = terrainFor(DEFAULT_SEED);
    const n = t.width * t.height;
    let steep = 0;
    let rocks = 0;
    let sand = 0;
    let sandOnRock = 0;
    for (let i = 0; i < n; i++) {
      rocks += t.obstacle[i]!;
      sand += t.hazard[i]!;
      sandOnRock += t.obstacle[i]! & t.hazard[i]!;
      if (i % t.width < t.width - 1 && slopeDeg(t, i, i + 1) > 20) steep++;
    }
    expect(steep / n).toBeLessThan(0.1);
    expect(rocks / n).toBeGreaterThan(0.01);
    expect(rocks / n).toBeLessThan(0.05);
    expect(sand).toBeGreaterThan(100);
    expect(sandOnRock).toBe(0);
    expect(t.craters.length).toBeGreaterThanOrEqual(10);
  });

  // How long generation takes is a benchmark figure (pnpm bench), never a test's: machines are shared.
  it('caches a map per seed', () => {
    expect(terrainFor(12345)).toBe(terrainFor(12345));
    expect(terrainFor(12345)).not.toBe(terrainFor(99));
  });

  it('reads a hand-drawn map north row first', () => {
    const t = terrainFromRows(['#.', '~5']);
    // Bottom row is y = 0.
    expect(t.hazard[0]).toBe(1);
    expect(t.elevation[1]).toBe(5);
    expect(t.obstacle[2]).toBe(1);
  });
});
