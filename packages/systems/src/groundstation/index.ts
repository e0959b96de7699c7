export { type AntennaReference, type Climate, EQUIPMENT, type StationEquipment } from './equipment.js';
export { healthAt } from './health.js';
export {
  createGroundstationSystem,
  type GroundstationSystem,
  type GroundstationSystemOptions,
} from './system.js';
