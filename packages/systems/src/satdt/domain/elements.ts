import type { SatRec } from 'satellite.js';

export type OrbitalRegime = 'LEO' | 'MEO' | 'GEO' | 'HEO';

/**
 * What kind of geosynchronous orbit a GEO one is. "GEO" is the regime of a period of one sidereal day
 * (the contract's four classes are altitude bands); only a geostationary satellite also stays put in
 * the sky, so the subtype tells the others apart: an inclined one (QZS-2, i 39°) draws a figure eight
 * in latitude, an eccentric one swings east and west.
 */
export type GeosynchronousKind = 'geostationary' | 'inclined' | 'eccentric';

/** Beyond these a geosynchronous satellite wanders visibly in the sky; within them it is geostationary. */
export const GEOSTATIONARY_MAX_INCLINATION_DEG = 5;
export const GEOSTATIONARY_MAX_ECCENTRICITY = 0.01;

/** WGS-84 equatorial radius: altitudes are reported above it, as is usual for apogee/perigee heights. */
export const WGS84_EQUATORIAL_RADIUS_KM = 6378.137;
/** SGP4 works in WGS-72 units; its gravitational parameter keeps the semi-major axis consistent with it. */
export const SGP4_MU_KM3_S2 = 398600.8;
const MS_PER_DAY = 86_400_000;
const RAD = 180 / Math.PI;

/** One sidereal day per revolution: the mean motion of a geosynchronous orbit. */
export const GEOSYNCHRONOUS_REV_PER_DAY = 1.0027;

export interface OrbitalElements {
  inclinationDeg: number;
  eccentricity: number;
  /** Mean motion as published in the element set (Kozai convention), revolutions per day. */
  meanMotionRevPerDay: number;
  periodMin: number;
  semiMajorAxisKm: number;
  apogeeAltitudeKm: number;
  perigeeAltitudeKm: number;
  raanDeg: number;
  argOfPerigeeDeg: number;
  meanAnomalyDeg: number;
  /** Element-set epoch, ISO-8601 UTC with milliseconds. */
  epoch: string;
  epochMs: number;
  regime: OrbitalRegime;
  /** Only for GEO. */
  geosynchronousKind?: GeosynchronousKind;
}

/**
 * Epoch of the element set in Unix milliseconds (fractional). Derived from the TLE's year and day of
 * year rather than from `jdsatepoch`: a Julian date held in one double resolves only ~40 µs, and the
 * day-of-year form is what the TLE actually states.
 */
export function epochMs(satrec: SatRec): number {
  const yy = satrec.epochyr;
  const year = yy < 57 ? 2000 + yy : yy < 100 ? 1900 + yy : yy;
  return Date.UTC(year, 0, 1) + (satrec.epochdays - 1) * MS_PER_DAY;
}

/** Mean motion stated in the TLE (rev/day); satellite.js keeps it as `nokozai` in rad/min. */
export function meanMotionRevPerDay(satrec: SatRec): number {
  return (satrec.nokozai * 1440) / (2 * Math.PI);
}

/** True for orbits with a period of one sidereal day, whatever their eccentricity or inclination. */
export function isGeosynchronous(meanMotion: number): boolean {
  return Math.abs(meanMotion - GEOSYNCHRONOUS_REV_PER_DAY) < 0.05;
}

/**
 * The usual rule, in this order: very eccentric orbits are HEO whatever their period; then
 * geosynchronous ones are GEO; then by apogee height.
 */
export function classifyRegime(
  eccentricity: number,
  meanMotion: number,
  apogeeAltitudeKm: number,
): OrbitalRegime {
  if (eccentricity >= 0.25) return 'HEO';
  if (isGeosynchronous(meanMotion)) return 'GEO';
  if (apogeeAltitudeKm < 2000) return 'LEO';
  return 'MEO';
}

/** Inclination first: an inclined orbit rises and sets over some stations, whatever its eccentricity. */
export function classifyGeosynchronous(eccentricity: number, inclinationDeg: number): GeosynchronousKind {
  if (inclinationDeg > GEOSTATIONARY_MAX_INCLINATION_DEG) return 'inclined';
  if (eccentricity > GEOSTATIONARY_MAX_ECCENTRICITY) return 'eccentric';
  return 'geostationary';
}

/**
 * The element set's mean elements in readable units. Semi-major axis, apogee and perigee follow from
 * the published mean motion by Kepler's third law: they are mean values, and the instantaneous
 * altitude of a low satellite swings some ±10 km around them.
 */
export function orbitalElements(satrec: SatRec): OrbitalElements {
  const n = meanMotionRevPerDay(satrec);
  const nRadPerS = (n * 2 * Math.PI) / 86_400;
  const a = Math.cbrt(SGP4_MU_KM3_S2 / (nRadPerS * nRadPerS));
  const e = satrec.ecco;
  const apogee = a * (1 + e) - WGS84_EQUATORIAL_RADIUS_KM;
  const perigee = a * (1 - e) - WGS84_EQUATORIAL_RADIUS_KM;
  const ms = epochMs(satrec);
  const inclinationDeg = satrec.inclo * RAD;
  const regime = classifyRegime(e, n, apogee);
  return {
    inclinationDeg,
    eccentricity: e,
    meanMotionRevPerDay: n,
    periodMin: 1440 / n,
    semiMajorAxisKm: a,
    apogeeAltitudeKm: apogee,
    perigeeAltitudeKm: perigee,
    raanDeg: satrec.nodeo * RAD,
    argOfPerigeeDeg: satrec.argpo * RAD,
    meanAnomalyDeg: satrec.mo * RAD,
    epoch: new Date(Math.round(ms)).toISOString(),
    epochMs: ms,
    regime,
    ...(regime === 'GEO' ? { geosynchronousKind: classifyGeosynchronous(e, inclinationDeg) } : {}),
  };
}

/** Age of the element set at `atMs`, in days (negative before the epoch). */
export function elementSetAgeDays(satrec: SatRec, atMs: number): number {
  return (atMs - epochMs(satrec)) / MS_PER_DAY;
}
