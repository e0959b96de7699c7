import { eciToGeodetic, type SatRec, sgp4 } from 'satellite.js';
import { epochMs, SGP4_MU_KM3_S2 } from './elements.js';
import { PropagationError } from './propagation-error.js';
import { checkPropagationSpan } from './validity.js';

export { PropagationError } from './propagation-error.js';

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_JD = 2440587.5;
const RAD = 180 / Math.PI;

/** Why SGP4 gave up, by the error code it leaves in `satrec.error` (Spanish: it reaches the model). */
const SGP4_ERRORS: Readonly<Record<number, string>> = {
  1: 'la excentricidad media salió del intervalo 0 ≤ e < 1',
  2: 'el movimiento medio se volvió negativo',
  3: 'la excentricidad perturbada salió del intervalo 0 ≤ e < 1',
  4: 'el semilado recto se volvió negativo',
  6: 'la órbita ha decaído (la posición calculada queda bajo la superficie terrestre)',
};

/** SGP4's Earth radius (WGS-72): satrec.a is in these units. */
const SGP4_EARTH_RADIUS_KM = 6378.135;
/**
 * The osculating semi-major axis SGP4's state implies may differ from the mean one by its short-period
 * terms (well under 1 %) and by decay over the allowed span (a few %): beyond this it is not this orbit.
 */
const MAX_SEMI_MAJOR_AXIS_DEVIATION = 0.2;

/**
 * TEME position (km) and velocity (km/s) at `tMs` (Unix ms, UTC). Time since epoch is passed to SGP4
 * as fractional minutes computed from milliseconds: satellite.js' `propagate(date)` would go through
 * a Julian date and lose sub-millisecond resolution, which matters when bisecting to 1 ms.
 *
 * A state no orbit of this satellite can have is refused like an SGP4 failure (assertPhysicalState);
 * below the surface SGP4 refuses by itself (error 6). The span from the epoch is checked by the callers,
 * once per request (validity.ts).
 */
export function propagateTeme(satrec: SatRec, tMs: number, epoch = epochMs(satrec)): { r: Vec3; v: Vec3 } {
  const noradId = Number(satrec.satnum);
  if (!Number.isFinite(tMs)) {
    throw new PropagationError(noradId, tMs, 'invalid-instant', `${String(tMs)} no es un instante válido`);
  }
  const result = sgp4(satrec, (tMs - epoch) / 60_000);
  if (result === null || satrec.error !== 0) {
    const days = ((tMs - epoch) / MS_PER_DAY).toFixed(1);
    const reason = SGP4_ERRORS[satrec.error] ?? `error ${satrec.error} de SGP4`;
    throw new PropagationError(
      noradId,
      tMs,
      'sgp4',
      `SGP4 falla en ${isoOrRaw(tMs)} (a ${days} días de la época de sus elementos): ${reason}`,
      { code: satrec.error },
    );
  }
  const { position: r, velocity: v } = result;
  assertPhysicalState(satrec, tMs, r, v);
  return { r, v };
}

/**
 * Refuses a TEME state no orbit of this satellite can have: faster than escape, or on an orbit far
 * larger or smaller than its own.
 */
export function assertPhysicalState(satrec: SatRec, tMs: number, r: Vec3, v: Vec3): void {
  const rKm = Math.hypot(r.x, r.y, r.z);
  const v2 = v.x * v.x + v.y * v.y + v.z * v.z;
  const inverseA = 2 / rKm - v2 / SGP4_MU_KM3_S2;
  const meanA = satrec.a * SGP4_EARTH_RADIUS_KM;
  if (inverseA > 0 && Math.abs(1 / inverseA / meanA - 1) <= MAX_SEMI_MAJOR_AXIS_DEVIATION) return;
  const why =
    inverseA > 0
      ? `una órbita de semieje ${Math.round(1 / inverseA)} km, cuando la suya tiene ${Math.round(meanA)} km`
      : 'más que la velocidad de escape: no estaría en órbita';
  const days = ((tMs - epochMs(satrec)) / MS_PER_DAY).toFixed(1);
  throw new PropagationError(
    Number(satrec.satnum),
    tMs,
    'unphysical',
    `el resultado de SGP4 en ${isoOrRaw(tMs)} (a ${days} días de la época de sus elementos) no es físico: ` +
      `${Math.round(rKm - SGP4_EARTH_RADIUS_KM)} km de altitud a ${Math.sqrt(v2).toFixed(2)} km/s es ${why}`,
  );
}

function isoOrRaw(tMs: number): string {
  const d = new Date(tMs);
  return Number.isNaN(d.getTime()) ? String(tMs) : d.toISOString();
}

/** Julian date (UTC) of a Unix-ms instant. */
export function julianDate(tMs: number): number {
  return tMs / MS_PER_DAY + UNIX_EPOCH_JD;
}

const J2000_MS = Date.UTC(2000, 0, 1, 12, 0, 0);
const TWO_PI = 2 * Math.PI;

/**
 * Greenwich mean sidereal time, IAU-82: the angle SGP4's TEME frame is defined with, and the formula
 * of satellite.js' `gstime` (Vallado). It is evaluated here from milliseconds rather than from a Julian
 * date because a Julian date in one double only resolves ~40 µs: the resulting 3e-9 rad jitter is
 * invisible in a position but makes the very flat elevation maximum of a high orbit wander by
 * seconds. UT1 − UTC is taken as zero, as SGP4 users conventionally do (it stays under 0.9 s).
 */
export function gmstRad(tMs: number): number {
  const sinceJ2000Ms = tMs - J2000_MS;
  const t = sinceJ2000Ms / (86_400_000 * 36_525);
  // 876600 h × 3600 s/h per Julian century is exactly one second of GMST per second of UT1, so that
  // term is the time since J2000 itself; only its fraction of a day matters.
  const dayFractionS = (((sinceJ2000Ms % 86_400_000) + 86_400_000) % 86_400_000) / 1000;
  const seconds = 67310.54841 + dayFractionS + (8640184.812866 + (0.093104 - 6.2e-6 * t) * t) * t;
  const angle = ((seconds % 86_400) / 86_400) * TWO_PI;
  return angle < 0 ? angle + TWO_PI : angle;
}

/** TEME → Earth-fixed (pseudo-Earth-fixed: polar motion is ignored) by the GMST rotation. */
export function temeToEcf(r: Vec3, gmst: number): Vec3 {
  const c = Math.cos(gmst);
  const s = Math.sin(gmst);
  return { x: c * r.x + s * r.y, y: -s * r.x + c * r.y, z: r.z };
}

export interface SatellitePosition {
  atMs: number;
  /** TEME (true equator, mean equinox of date) position, km. */
  positionKm: Vec3;
  /** TEME velocity, km/s. */
  velocityKmS: Vec3;
  /** Geodetic (WGS-84) latitude of the sub-satellite point, degrees. */
  latitudeDeg: number;
  /** Longitude of the sub-satellite point, degrees in [-180, 180). */
  longitudeDeg: number;
  /** Height above the WGS-84 ellipsoid, km. */
  altitudeKm: number;
  /** Inertial speed, km/s. */
  speedKmS: number;
  gmstRad: number;
}

export function positionAt(satrec: SatRec, tMs: number): SatellitePosition {
  checkPropagationSpan(satrec, tMs);
  const { r, v } = propagateTeme(satrec, tMs);
  const gmst = gmstRad(tMs);
  const geo = eciToGeodetic(r, gmst);
  let lon = geo.longitude * RAD;
  if (lon >= 180) lon -= 360;
  if (lon < -180) lon += 360;
  return {
    atMs: tMs,
    positionKm: { x: r.x, y: r.y, z: r.z },
    velocityKmS: { x: v.x, y: v.y, z: v.z },
    latitudeDeg: geo.latitude * RAD,
    longitudeDeg: lon,
    altitudeKm: geo.height,
    speedKmS: Math.hypot(v.x, v.y, v.z),
    gmstRad: gmst,
  };
}
