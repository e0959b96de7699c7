import { type Cell, MAX_SLOPE_DEG } from '@code-cluster/shared/roverdt';
import { BATTERY_CAPACITY_WH, CLOCK_EPOCH_MS } from './model.js';
import type { RoverdtStore, RoverRow } from './store.js';
import { indexOf, inMap, type Terrain } from './terrain.js';

export interface RoverSeed {
  id: string;
  name: string;
  /** Where it starts: the nearest safe cell to this one. */
  near: Cell;
  batteryPct: number;
}

/** The reference rover every fresh install has (CONTRACT.md). */
export const REFERENCE_ROVERS: readonly RoverSeed[] = [
  { id: 'rover-1', name: 'CO.DE Rover 1', near: { x: 40, y: 40 }, batteryPct: 80 },
];

/** Seeds a fresh store with the map's seed and the rovers; refuses a store made for another map. */
export async function seedStore(
  store: RoverdtStore,
  terrain: Terrain,
  rovers: readonly RoverSeed[],
): Promise<void> {
  await store.transaction(async (tx) => {
    const stored = await tx.seed();
    if (stored !== undefined && stored !== terrain.seed) {
      throw new Error(
        `${store.where} holds rovers of the map with seed ${stored}, not ${terrain.seed}: use another data dir or database`,
      );
    }
    await tx.setSeed(terrain.seed);
    for (const seed of rovers) await tx.insertRover(initialRover(terrain, seed));
  });
}

/** A rover as it starts: on the nearest cell to `near` where it and its neighbours stand safely. */
function initialRover(t: Terrain, seed: RoverSeed): RoverRow {
  const start = safeCellNear(t, seed.near);
  return {
    id: seed.id,
    name: seed.name,
    x: start.x,
    y: start.y,
    heading_deg: 0,
    battery_wh: (BATTERY_CAPACITY_WH * seed.batteryPct) / 100,
    clock_ms: CLOCK_EPOCH_MS,
    odometer_m: 0,
    mode: 'reposo',
    active_route: null,
    last_stop: null,
  };
}

function safeCellNear(t: Terrain, near: Cell): Cell {
  const safe = (x: number, y: number) => {
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        if (!inMap(t, x + dx, y + dy)) return false;
        const i = indexOf(t, x + dx, y + dy);
        if (t.obstacle[i] || t.hazard[i]) return false;
        const rise = Math.abs(t.elevation[i]! - t.elevation[indexOf(t, x, y)]!);
        if (Math.atan(rise / Math.hypot(dx, dy) || 0) > (MAX_SLOPE_DEG * Math.PI) / 180) return false;
      }
    }
    return true;
  };
  for (let radius = 0; radius < Math.max(t.width, t.height); radius++) {
    for (let dy = -radius; dy <= radius; dy++) {
      for (let dx = -radius; dx <= radius; dx++) {
        if (Math.max(Math.abs(dx), Math.abs(dy)) !== radius) continue;
        if (safe(near.x + dx, near.y + dy)) return { x: near.x + dx, y: near.y + dy };
      }
    }
  }
  return near;
}
