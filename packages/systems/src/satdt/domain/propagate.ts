import { eciToGeodetic, type SatRec, sgp4 } from 'satellite.js';
import { epochMs } from './elements.js';

export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_JD = 2440587.5;
const RAD = 180 / Math.PI;

/** Why SGP4 gave up, by the error code it leaves in `satrec.error`. */
const SGP4_ERRORS: Readonly<Record<number, string>> = {
  1: 'mean eccentricity left the range 0 ≤ e < 1',
  2: 'mean motion fell below zero',
  3: 'perturbed eccentricity left the range 0 ≤ e < 1',
  4: 'semi-latus rectum fell below zero',
  6: 'the orbit has decayed (the computed position is below the Earth surface)',
};

/** SGP4 could not produce a position: the element set is unusable at that instant. */
export class PropagationError extends Error {
  override readonly name = 'PropagationError';
  readonly noradId: number;
  readonly atMs: number;
  /** SGP4 error code (satrec.error); 0 when the instant itself was invalid. */
  readonly code: number;

  constructor(noradId: number, atMs: number, code: number, message: string) {
    super(message);
    this.noradId = noradId;
    this.atMs = atMs;
    this.code = code;
  }
}

/**
 * TEME position (km) and velocity (km/s) at `tMs` (Unix ms, UTC). Time since epoch is passed to SGP4
 * as fractional minutes computed from milliseconds: satellite.js' `propagate(date)` would go through
 * a Julian date and lose sub-millisecond resolution, which matters when bisecting to 1 ms.
 */
export function propagateTeme(satrec: SatRec, tMs: number, epoch = epochMs(satrec)): { r: Vec3; v: Vec3 } {
  const noradId = Number(satrec.satnum);
  if (!Number.isFinite(tMs)) {
    throw new PropagationError(noradId, tMs, 0, `cannot propagate NORAD ${noradId} to a non-finite instant`);
  }
  const result = sgp4(satrec, (tMs - epoch) / 60_000);
  if (result === null || satrec.error !== 0) {
    const days = (tMs - epoch) / MS_PER_DAY;
    const reason = SGP4_ERRORS[satrec.error] ?? `SGP4 error ${satrec.error}`;
    throw new PropagationError(
      noradId,
      tMs,
      satrec.error,
      `SGP4 cannot propagate NORAD ${noradId} to ${isoOrRaw(tMs)} (${days.toFixed(1)} days from its element-set epoch): ${reason}`,
    );
  }
  return { r: result.position, v: result.velocity };
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
