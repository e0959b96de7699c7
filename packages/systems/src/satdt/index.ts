export type { ElementChange, ElementChangeListener } from './domain/element-store.js';
export {
  DEFAULT_REFRESH_HOURS,
  type ElementsConfig,
  type ElementsLog,
  type RefreshReport,
} from './elements-refresh.js';
export { createSatdtSystem, type SatdtSystem, type SatdtSystemOptions } from './system.js';
