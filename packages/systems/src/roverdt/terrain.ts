import { CELL_SIZE_M, MAP_CELLS } from '@code-cluster/shared/roverdt';

/**
 * The rover's world: a square heightmap with rocks (never driven over) and soft-sand patches (hazards the
 * planner does not know about until the rover finds them). Everything follows from the seed.
 */
export interface Terrain {
  seed: number;
  width: number;
  height: number;
  cellSizeM: number;
  /** Metres, row-major: index = y * width + x. */
  elevation: Float32Array;
  /** 1: a rock. */
  obstacle: Uint8Array;
  /** 1: soft sand, invisible to planning until found. */
  hazard: Uint8Array;
  craters: readonly Crater[];
}

export interface Crater {
  x: number;
  y: number;
  radius: number;
  depth: number;
}

/** The embedded twin's map (the course material refers to this one). */
export const DEFAULT_SEED = 20_260_427;

const cache = new Map<string, Terrain>();

/**
 * The terrain of a seed, generated once per process (tens of milliseconds) and then shared: it is never
 * mutated, so every rover and request can read it.
 */
export function terrainFor(seed = DEFAULT_SEED, size = MAP_CELLS): Terrain {
  const key = `${seed}:${size}`;
  let terrain = cache.get(key);
  if (!terrain) {
    terrain = generateTerrain(seed, size);
    cache.set(key, terrain);
  }
  return terrain;
}

/** Octaves of value noise: period in cells, amplitude in metres. Tuned so most ground is drivable. */
const OCTAVES: ReadonlyArray<readonly [number, number]> = [
  [64, 9],
  [32, 3.5],
  [16, 1.2],
  [8, 0.35],
];

export function generateTerrain(seed: number, size = MAP_CELLS): Terrain {
  const n = size * size;
  const elevation = new Float32Array(n);
  for (let o = 0; o < OCTAVES.length; o++) {
    const [period, amplitude] = OCTAVES[o]!;
    addValueNoise(elevation, size, period, amplitude, seed ^ Math.imul(o + 1, 0x9e3779b1));
  }

  const random = mulberry32(seed);
  const craters: Crater[] = [];
  const craterCount = 10 + Math.floor(random() * 5);
  for (let i = 0; i < craterCount; i++) {
    const radius = 5 + random() * 12;
    // Deep bowls have walls too steep to drive; shallow ones can be crossed.
    const depth = radius * (0.08 + random() * 0.3);
    craters.push({
      x: Math.round(radius + random() * (size - 2 * radius)),
      y: Math.round(radius + random() * (size - 2 * radius)),
      radius,
      depth,
    });
  }
  for (const c of craters) carveCrater(elevation, size, c);

  const obstacle = new Uint8Array(n);
  const rocks = Math.round(n * 0.006);
  for (let i = 0; i < rocks; i++) {
    const cx = Math.floor(random() * size);
    const cy = Math.floor(random() * size);
    // Mostly single boulders, some of 2-3 m across.
    const r = random() < 0.8 ? 0 : 1 + Math.floor(random() * 2);
    fillDisc(obstacle, size, cx, cy, r);
  }

  const hazard = new Uint8Array(n);
  const patches = 24 + Math.floor(random() * 8);
  for (let i = 0; i < patches; i++) {
    const cx = Math.floor(random() * size);
    const cy = Math.floor(random() * size);
    fillDisc(hazard, size, cx, cy, 1 + Math.floor(random() * 3));
  }
  for (let i = 0; i < n; i++) if (obstacle[i]) hazard[i] = 0;

  return { seed, width: size, height: size, cellSizeM: CELL_SIZE_M, elevation, obstacle, hazard, craters };
}

/** A bowl with a raised rim: `depth` below the surroundings at the centre, the rim ~30 % of it above. */
function carveCrater(elevation: Float32Array, size: number, c: Crater): void {
  const reach = Math.ceil(c.radius * 1.6);
  for (let y = Math.max(0, c.y - reach); y <= Math.min(size - 1, c.y + reach); y++) {
    for (let x = Math.max(0, c.x - reach); x <= Math.min(size - 1, c.x + reach); x++) {
      const r = Math.hypot(x - c.x, y - c.y) / c.radius;
      const bowl = r < 1 ? -c.depth * (1 - r * r) : 0;
      const rim = 0.3 * c.depth * Math.exp(-(((r - 1) / 0.25) ** 2));
      elevation[y * size + x]! += bowl + rim;
    }
  }
}

function fillDisc(mask: Uint8Array, size: number, cx: number, cy: number, r: number): void {
  for (let y = Math.max(0, cy - r); y <= Math.min(size - 1, cy + r); y++) {
    for (let x = Math.max(0, cx - r); x <= Math.min(size - 1, cx + r); x++) {
      if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r + r) mask[y * size + x] = 1;
    }
  }
}

/**
 * Adds smoothly interpolated lattice noise in [-amplitude, amplitude]: random values on a grid every
 * `period` cells, computed once per lattice point rather than four times per cell.
 */
function addValueNoise(out: Float32Array, size: number, period: number, amplitude: number, salt: number) {
  const points = Math.ceil(size / period) + 2;
  const lattice = new Float32Array(points * points);
  for (let j = 0; j < points; j++) {
    for (let i = 0; i < points; i++) lattice[j * points + i] = (hash3(i, j, salt) / 0xffffffff) * 2 - 1;
  }
  for (let y = 0; y < size; y++) {
    const y0 = Math.floor(y / period);
    const sy = smooth(y / period - y0);
    for (let x = 0; x < size; x++) {
      const x0 = Math.floor(x / period);
      const sx = smooth(x / period - x0);
      const a = lattice[y0 * points + x0]!;
      const b = lattice[y0 * points + x0 + 1]!;
      const c = lattice[(y0 + 1) * points + x0]!;
      const d = lattice[(y0 + 1) * points + x0 + 1]!;
      out[y * size + x]! += amplitude * ((a + (b - a) * sx) * (1 - sy) + (c + (d - c) * sx) * sy);
    }
  }
}

const smooth = (t: number) => t * t * (3 - 2 * t);

/** A 32-bit integer hash of three integers (deterministic on every platform). */
export function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a | 0, 0x27d4eb2d) ^ Math.imul(b | 0, 0x165667b1) ^ Math.imul(c | 0, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const indexOf = (t: Terrain, x: number, y: number) => y * t.width + x;
export const inMap = (t: Terrain, x: number, y: number) => x >= 0 && y >= 0 && x < t.width && y < t.height;

/** Slope of the move between two neighbouring cells, degrees. */
export function slopeDeg(t: Terrain, from: number, to: number): number {
  const dx = (to % t.width) - (from % t.width);
  const dy = Math.floor(to / t.width) - Math.floor(from / t.width);
  const run = Math.hypot(dx, dy) * t.cellSizeM;
  return (Math.atan(Math.abs(t.elevation[to]! - t.elevation[from]!) / run) * 180) / Math.PI;
}

/**
 * A terrain drawn by hand (tests): rows north first, `#` a rock, `~` soft sand, a digit 0-9 a cell that
 * high (in `stepM` metres), anything else flat ground.
 */
export function terrainFromRows(rows: readonly string[], stepM = 1): Terrain {
  const height = rows.length;
  const width = rows[0]!.length;
  const n = width * height;
  const elevation = new Float32Array(n);
  const obstacle = new Uint8Array(n);
  const hazard = new Uint8Array(n);
  rows.forEach((row, r) => {
    const y = height - 1 - r;
    for (let x = 0; x < width; x++) {
      const ch = row[x] ?? '.';
      const i = y * width + x;
      if (ch === '#') obstacle[i] = 1;
      else if (ch === '~') hazard[i] = 1;
      else if (ch >= '0' && ch <= '9') elevation[i] = Number(ch) * stepM;
    }
  });
  return { seed: 0, width, height, cellSizeM: 1, elevation, obstacle, hazard, craters: [] };
}
