import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gstime, sgp4, twoline2satrec } from 'satellite.js';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import { epochMs } from './elements.js';
import { gmstRad, julianDate, PropagationError, positionAt, propagateTeme } from './propagate.js';

const here = dirname(fileURLToPath(import.meta.url));
const catalog = loadCatalog(
  readFileSync(join(here, '..', '..', '..', 'data', 'satdt', 'catalog.tle'), 'utf8'),
);
const satrec = (id: number) => catalog.get(id)!.satrec;
const T0 = Date.parse('2026-06-27T00:00:00Z');

describe('propagation', () => {
  it('puts the ISS where a low orbit should be', () => {
    const p = positionAt(satrec(25544), T0);
    expect(p.altitudeKm).toBeGreaterThan(400);
    expect(p.altitudeKm).toBeLessThan(440);
    expect(p.speedKmS).toBeGreaterThan(7.6);
    expect(p.speedKmS).toBeLessThan(7.7);
    expect(Math.abs(p.latitudeDeg)).toBeLessThanOrEqual(51.7);
    expect(Math.hypot(p.positionKm.x, p.positionKm.y, p.positionKm.z)).toBeCloseTo(6371 + p.altitudeKm, -2);
  });

  it('keeps longitudes in [-180, 180) over a day of ground track', () => {
    for (let t = T0; t < T0 + 86_400_000; t += 97_000) {
      const { longitudeDeg, latitudeDeg } = positionAt(satrec(43013), t);
      expect(longitudeDeg).toBeGreaterThanOrEqual(-180);
      expect(longitudeDeg).toBeLessThan(180);
      expect(Math.abs(latitudeDeg)).toBeLessThanOrEqual(90);
    }
  });

  it('passes SGP4 the time since epoch in fractional minutes, to sub-millisecond resolution', () => {
    const s = satrec(25544);
    const t = T0 + 0.25; // a quarter of a millisecond
    const direct = sgp4(s, (t - epochMs(s)) / 60_000)!;
    const ours = propagateTeme(s, t);
    expect(ours.r.x).toBe(direct.position.x);
    expect(ours.v.z).toBe(direct.velocity.z);
    // 0.25 ms at 7.66 km/s is ~2 m: visibly different from the whole millisecond.
    const whole = propagateTeme(s, T0);
    expect(Math.hypot(ours.r.x - whole.r.x, ours.r.y - whole.r.y, ours.r.z - whole.r.z)).toBeGreaterThan(
      0.0015,
    );
  });

  it('computes GMST with the IAU-82 formula of satellite.js, on UTC', () => {
    for (const t of [
      T0,
      T0 + 12_345_678.9,
      Date.parse('2030-01-01T06:00:00Z'),
      Date.parse('1999-12-31T23:59:59Z'),
    ]) {
      const diff = Math.abs(gmstRad(t) - gstime(julianDate(t)));
      expect(Math.min(diff, 2 * Math.PI - diff)).toBeLessThan(1e-8);
    }
  });

  it('throws a PropagationError in Spanish when the orbit has decayed (STARLINK-1008, a year on)', () => {
    const s = satrec(44714);
    // Past the LEO span positionAt allows: propagateTeme shows what SGP4 itself says there.
    const late = Date.parse('2027-06-27T00:00:00Z');
    expect(() => propagateTeme(s, late)).toThrow(PropagationError);
    try {
      propagateTeme(s, late);
    } catch (err) {
      expect(err).toBeInstanceOf(PropagationError);
      const e = err as PropagationError;
      expect(e.code).toBe(6);
      expect(e.kind).toBe('sgp4');
      expect(e.noradId).toBe(44714);
      expect(e.message).toBe(
        'SGP4 falla en 2027-06-27T00:00:00.000Z (a 365.2 días de la época de sus elementos): la órbita ha ' +
          'decaído (la posición calculada queda bajo la superficie terrestre)',
      );
    }
    // The same element set is fine near its epoch.
    expect(positionAt(s, T0).altitudeKm).toBeGreaterThan(300);
  });

  it('throws a PropagationError for a hand-made element set SGP4 cannot use', () => {
    // A valid-looking TLE with a mean motion so low that drag makes the mean motion negative quickly.
    const bad = twoline2satrec(
      '1 99999U 24001A   26178.00000000  .99999999  00000+0  99999-0 0  9990',
      '2 99999  51.6000 100.0000 0001000  90.0000 270.0000 16.40000000    09',
    );
    expect(() => propagateTeme(bad, T0 + 30 * 86_400_000)).toThrow(PropagationError);
    expect(() => propagateTeme(satrec(25544), Number.NaN)).toThrow('NaN no es un instante válido');
  });
});
