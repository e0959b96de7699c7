import type { MapSummary, TerrainGrid } from '@code-cluster/shared/roverdt';
import { round } from './model.js';
import { indexOf, inMap, slopeDeg, type Terrain } from './terrain.js';

/** Cells per overview character: a 256-cell map becomes 32 × 32 characters, small enough for a model. */
const BLOCK = 8;

const LEGEND = {
  '.': 'llano',
  ':': 'irregular (algunas pendientes de más del límite)',
  '^': 'escarpado (muchas pendientes de más del límite)',
  '#': 'rocoso (muchas rocas)',
  O: 'cráter',
};

/** The map in numbers plus a coarse character picture, computed once per terrain. */
export function summarizeMap(t: Terrain, maxSlopeDeg: number): MapSummary {
  const steep = new Uint8Array(t.width * t.height);
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  let obstacles = 0;
  let steepCells = 0;
  for (let y = 0; y < t.height; y++) {
    for (let x = 0; x < t.width; x++) {
      const i = indexOf(t, x, y);
      low = Math.min(low, t.elevation[i]!);
      high = Math.max(high, t.elevation[i]!);
      obstacles += t.obstacle[i]!;
      for (let dy = -1; dy <= 1 && !steep[i]; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          if (
            (dx || dy) &&
            inMap(t, x + dx, y + dy) &&
            slopeDeg(t, i, indexOf(t, x + dx, y + dy)) > maxSlopeDeg
          ) {
            steep[i] = 1;
            break;
          }
        }
      }
      steepCells += steep[i]!;
    }
  }

  const rows: string[] = [];
  for (let by = Math.ceil(t.height / BLOCK) - 1; by >= 0; by--) {
    let row = '';
    for (let bx = 0; bx < Math.ceil(t.width / BLOCK); bx++) {
      const cx = bx * BLOCK + BLOCK / 2;
      const cy = by * BLOCK + BLOCK / 2;
      let rocks = 0;
      let steepHere = 0;
      let cells = 0;
      for (let y = by * BLOCK; y < Math.min(t.height, (by + 1) * BLOCK); y++) {
        for (let x = bx * BLOCK; x < Math.min(t.width, (bx + 1) * BLOCK); x++) {
          const i = indexOf(t, x, y);
          rocks += t.obstacle[i]!;
          steepHere += steep[i]!;
          cells++;
        }
      }
      const crater = t.craters.some((c) => Math.hypot(cx - c.x, cy - c.y) < c.radius * 0.7);
      row += crater
        ? 'O'
        : rocks / cells > 0.15
          ? '#'
          : steepHere / cells > 0.3
            ? '^'
            : steepHere / cells > 0.05
              ? ':'
              : '.';
    }
    rows.push(row);
  }

  return {
    seed: t.seed,
    width: t.width,
    height: t.height,
    cell_size_m: t.cellSizeM,
    elevation_min_m: round(low, 2),
    elevation_max_m: round(high, 2),
    obstacle_cells: obstacles,
    craters: t.craters.length,
    max_slope_deg: maxSlopeDeg,
    steep_cells: steepCells,
    overview: { block_cells: BLOCK, legend: LEGEND, rows },
  };
}

/** The whole heightmap, one byte per cell between the lowest and the highest cell, and the rock cells. */
export function gridOf(t: Terrain): TerrainGrid {
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const e of t.elevation) {
    low = Math.min(low, e);
    high = Math.max(high, e);
  }
  const span = high - low || 1;
  const bytes = new Uint8Array(t.elevation.length);
  const obstacles: number[] = [];
  for (let i = 0; i < t.elevation.length; i++) {
    bytes[i] = Math.round(((t.elevation[i]! - low) / span) * 255);
    if (t.obstacle[i]) obstacles.push(i);
  }
  return {
    width: t.width,
    height: t.height,
    cell_size_m: t.cellSizeM,
    elevation_min_m: round(low, 2),
    elevation_max_m: round(high, 2),
    elevation_u8: Buffer.from(bytes).toString('base64'),
    obstacles,
  };
}
