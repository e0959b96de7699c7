export { createSatdtSystem, type SatdtSystem, type SatdtSystemOptions } from './system.js';
