import type { Vec3 } from './propagate.js';

const DEG = Math.PI / 180;
const J2000_MS = Date.UTC(2000, 0, 1, 12, 0, 0);
const MS_PER_DAY = 86_400_000;

/** Earth radius used for the shadow: the WGS-84 equatorial radius (the atmosphere and oblateness are ignored). */
export const EARTH_SHADOW_RADIUS_KM = 6378.137;

export interface SunPosition {
  /** Unit vector from the Earth's centre towards the Sun, equatorial frame of date. */
  unit: Vec3;
  distanceAu: number;
}

/**
 * Low-precision Sun position from the Astronomical Almanac ("The Sun", section C; also Vallado,
 * algorithm 29): mean longitude and anomaly, equation of centre, obliquity. Good to about 0.01°
 * between 1950 and 2050, far better than eclipse timing needs (0.01° of Sun direction moves a LEO
 * shadow boundary by well under a second). The result is referred to the mean equator and equinox of
 * date, which differs from SGP4's TEME frame by nutation in right ascension only (< 0.005°), so it is
 * used directly with TEME satellite positions. TT − UTC (~69 s) is ignored for the same reason.
 */
export function sunPosition(tMs: number): SunPosition {
  const d = (tMs - J2000_MS) / MS_PER_DAY;
  const meanLongitudeDeg = 280.46 + 0.9856474 * d;
  const meanAnomaly = (357.528 + 0.9856003 * d) * DEG;
  const eclipticLongitude =
    (meanLongitudeDeg + 1.915 * Math.sin(meanAnomaly) + 0.02 * Math.sin(2 * meanAnomaly)) * DEG;
  const obliquity = (23.439 - 0.0000004 * d) * DEG;
  const distanceAu = 1.00014 - 0.01671 * Math.cos(meanAnomaly) - 0.00014 * Math.cos(2 * meanAnomaly);
  const cosL = Math.cos(eclipticLongitude);
  const sinL = Math.sin(eclipticLongitude);
  return {
    unit: { x: cosL, y: Math.cos(obliquity) * sinL, z: Math.sin(obliquity) * sinL },
    distanceAu,
  };
}

/**
 * Cylindrical Earth-shadow model: the satellite is in eclipse when it is on the night side of the
 * terminator plane and within one Earth radius of the Earth–Sun axis. It ignores the penumbra and the
 * narrowing of the umbra cone (0.27° half-angle), which shifts eclipse entry and exit of a LEO
 * satellite by a few seconds — irrelevant for a power and thermal model stepped every 60 s.
 */
export function isSunlit(positionKm: Vec3, sunUnit: Vec3): boolean {
  const along = positionKm.x * sunUnit.x + positionKm.y * sunUnit.y + positionKm.z * sunUnit.z;
  if (along >= 0) return true;
  const px = positionKm.x - along * sunUnit.x;
  const py = positionKm.y - along * sunUnit.y;
  const pz = positionKm.z - along * sunUnit.z;
  return px * px + py * py + pz * pz > EARTH_SHADOW_RADIUS_KM * EARTH_SHADOW_RADIUS_KM;
}
