export { type AntennaReference, type Climate, EQUIPMENT, type StationEquipment } from './equipment.js';
export { healthAt } from './health.js';
export type { ContactRow, GroundstationStore, MaintenanceRow } from './store.js';
export {
  createGroundstationSystem,
  type GroundstationSystem,
  type GroundstationSystemOptions,
  migrateGroundstation,
  openGroundstationSystem,
  type PostgresGroundstationOptions,
} from './system.js';
