import { sunPos } from 'satellite.js';
import { describe, expect, it } from 'vitest';
import { julianDate } from './propagate.js';
import { EARTH_SHADOW_RADIUS_KM, isSunlit, sunPosition } from './sun.js';

const DEG = 180 / Math.PI;
const declinationDeg = (tMs: number) => Math.asin(sunPosition(tMs).unit.z) * DEG;

describe('sun', () => {
  it('follows the seasons: solstice and equinox declinations, perihelion distance', () => {
    expect(declinationDeg(Date.parse('2026-06-21T08:25:00Z'))).toBeCloseTo(23.44, 1);
    expect(declinationDeg(Date.parse('2026-12-21T20:50:00Z'))).toBeCloseTo(-23.44, 1);
    expect(Math.abs(declinationDeg(Date.parse('2026-03-20T14:46:00Z')))).toBeLessThan(0.02);
    expect(sunPosition(Date.parse('2026-01-03T17:00:00Z')).distanceAu).toBeCloseTo(0.9833, 3);
    expect(sunPosition(Date.parse('2026-07-06T17:00:00Z')).distanceAu).toBeCloseTo(1.0167, 3);
  });

  it('agrees with the Almanac formula as satellite.js implements it to ~0.01°', () => {
    for (const iso of ['2026-06-27T00:00:00Z', '2026-10-01T12:00:00Z', '2027-02-14T06:30:00Z']) {
      const t = Date.parse(iso);
      const ours = sunPosition(t).unit;
      const { rsun } = sunPos(julianDate(t));
      const norm = Math.hypot(rsun.x, rsun.y, rsun.z);
      const cos = (ours.x * rsun.x + ours.y * rsun.y + ours.z * rsun.z) / norm;
      expect(Math.acos(Math.min(1, cos)) * DEG).toBeLessThan(0.01);
    }
  });

  it('puts a satellite in the cylindrical shadow only behind the Earth', () => {
    const sun = { x: 1, y: 0, z: 0 };
    const r = 6378.137 + 420;
    expect(isSunlit({ x: r, y: 0, z: 0 }, sun)).toBe(true);
    expect(isSunlit({ x: -r, y: 0, z: 0 }, sun)).toBe(false);
    expect(isSunlit({ x: -r, y: 0, z: EARTH_SHADOW_RADIUS_KM - 1 }, sun)).toBe(false);
    expect(isSunlit({ x: -r, y: 0, z: EARTH_SHADOW_RADIUS_KM + 1 }, sun)).toBe(true);
    expect(isSunlit({ x: 0, y: r, z: 0 }, sun)).toBe(true);
    expect(isSunlit({ x: -42_164, y: 0, z: 0 }, sun)).toBe(false);
  });
});
