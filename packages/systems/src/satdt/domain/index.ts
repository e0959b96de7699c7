// Public API of the satellite twin's domain: pure functions over TLE element sets, no I/O.
export {
  type Catalog,
  type CatalogEntry,
  cosparFromIntlDesignator,
  type ElementFormat,
  type ElementOrigin,
  type ElementSource,
  loadCatalog,
  type OperationalStatus,
  operationalStatus,
  parseTle,
  parseTleText,
  SHIPPED_SOURCE,
  tleChecksum,
} from './catalog.js';
export { type ElementChange, type ElementChangeListener, ElementStore } from './element-store.js';
export {
  classifyGeosynchronous,
  classifyRegime,
  elementSetAgeDays,
  epochMs,
  GEOSTATIONARY_MAX_ECCENTRICITY,
  GEOSTATIONARY_MAX_INCLINATION_DEG,
  GEOSYNCHRONOUS_REV_PER_DAY,
  type GeosynchronousKind,
  isGeosynchronous,
  meanMotionRevPerDay,
  type OrbitalElements,
  type OrbitalRegime,
  orbitalElements,
  WGS84_EQUATORIAL_RADIUS_KM,
} from './elements.js';
export {
  ElementSourceError,
  MAX_ECCENTRICITY,
  MAX_EPOCH_AHEAD_MS,
  MEAN_MOTION_REV_DAY,
  parseElementSets,
} from './elements-source.js';
export {
  findPasses,
  findPassesForCatalog,
  type LookAngles,
  lookAngles,
  type Pass,
  type PassSearchResult,
  type Station,
} from './passes.js';
export {
  assertPhysicalState,
  gmstRad,
  julianDate,
  positionAt,
  propagateTeme,
  type SatellitePosition,
  temeToEcf,
  type Vec3,
} from './propagate.js';
export { PropagationError, type PropagationFailure } from './propagation-error.js';
export { EARTH_SHADOW_RADIUS_KM, isSunlit, type SunPosition, sunPosition } from './sun.js';
export {
  type PowerProfile,
  powerProfile,
  type Telemetry,
  type TelemetrySubject,
  type TwinMode,
  telemetryAt,
} from './telemetry.js';
export {
  checkPropagationSpan,
  elementWarning,
  PROPAGATION_LIMITS,
  propagationLimits,
  type RegimeLimits,
} from './validity.js';
