export { measure } from './instruments.js';
export {
  BATTERY_CAPACITY_WH,
  legEnergyWh,
  RESERVE_WH,
  SPEED_M_S,
  WH_PER_M,
  WH_PER_M_CLIMB,
} from './model.js';
export { summarizeMap } from './overview.js';
export {
  cutIntoLegs,
  explainUnreachable,
  findPath,
  LEG_MOVES,
  moveCost,
  type PlanLimits,
} from './planner.js';
export { openRoverdtPgStore } from './postgres-store.js';
export { openRoverdtStore } from './sqlite-store.js';
export type { RoverdtStore } from './store.js';
export {
  migrateRoverdt,
  openRoverdtSystem,
  REFERENCE_ROVERS,
  type RoverdtSystem,
  type RoverdtSystemOptions,
  type RoverSeed,
} from './system.js';
export { DEFAULT_SEED, generateTerrain, type Terrain, terrainFor, terrainFromRows } from './terrain.js';
