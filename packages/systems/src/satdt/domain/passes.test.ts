import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Catalog, loadCatalog } from './catalog.js';
import { findPasses, findPassesForCatalog, lookAngles, type Pass, type Station } from './passes.js';
import { PropagationError } from './propagate.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', '..', '..');
const catalog: Catalog = loadCatalog(readFileSync(join(pkg, 'data', 'satdt', 'catalog.tle'), 'utf8'));

interface ReferencePass {
  aos: string;
  tca: string;
  los: string;
  maxElevationDeg: number;
  aosAzimuthDeg: number;
  losAzimuthDeg: number;
  inProgressAtStart: boolean;
  inProgressAtEnd: boolean;
}
interface Reference {
  start: string;
  hours: number;
  stations: Station[];
  results: { noradId: number; name: string; stationId: string; passes: ReferencePass[] }[];
}
const reference: Reference = JSON.parse(
  readFileSync(join(pkg, 'test', 'fixtures', 'satdt', 'passes-reference.json'), 'utf8'),
);

const FROM = Date.parse(reference.start);
const TO = FROM + reference.hours * 3_600_000;
const stationById = new Map(reference.stations.map((s) => [s.id, s]));
const MX = stationById.get('orbiteye-mx')!;
const ES = stationById.get('orbiteye-es')!;

function sat(noradId: number) {
  const entry = catalog.get(noradId);
  if (!entry) throw new Error(`NORAD ${noradId} not in catalog`);
  return entry.satrec;
}

function passesOf(noradId: number, station: Station, from = FROM, to = TO): Pass[] {
  const result = findPasses(sat(noradId), station, from, to);
  if (result.visibility !== 'passes') throw new Error(`expected passes, got ${result.visibility}`);
  return result.passes;
}

/** Signed difference of two azimuths in degrees, wrapped to (-180, 180]. */
function azimuthDelta(a: number, b: number): number {
  const d = ((((a - b) % 360) + 540) % 360) - 180;
  return d === -180 ? 180 : d;
}

describe('passes against the Skyfield reference', () => {
  const worst = { aos: 0, tca: 0, los: 0, elev: 0, az: 0 };

  for (const ref of reference.results) {
    it(`${ref.name} (${ref.noradId}) over ${ref.stationId}`, () => {
      const station = stationById.get(ref.stationId)!;
      const passes = passesOf(ref.noradId, station);
      expect(passes.map((p) => new Date(p.aosMs).toISOString())).toHaveLength(ref.passes.length);
      ref.passes.forEach((r, i) => {
        const p = passes[i]!;
        const dAos = Math.abs(p.aosMs - Date.parse(r.aos));
        const dTca = Math.abs(p.tcaMs - Date.parse(r.tca));
        const dLos = Math.abs(p.losMs - Date.parse(r.los));
        const dEl = Math.abs(p.maxElevationDeg - r.maxElevationDeg);
        const dAz = Math.max(
          Math.abs(azimuthDelta(p.aosAzimuthDeg, r.aosAzimuthDeg)),
          Math.abs(azimuthDelta(p.losAzimuthDeg, r.losAzimuthDeg)),
        );
        worst.aos = Math.max(worst.aos, dAos);
        worst.tca = Math.max(worst.tca, dTca);
        worst.los = Math.max(worst.los, dLos);
        worst.elev = Math.max(worst.elev, dEl);
        worst.az = Math.max(worst.az, dAz);
        expect(dAos, `AOS of pass ${i}`).toBeLessThanOrEqual(1000);
        expect(dTca, `TCA of pass ${i}`).toBeLessThanOrEqual(1000);
        expect(dLos, `LOS of pass ${i}`).toBeLessThanOrEqual(1000);
        expect(dEl, `max elevation of pass ${i}`).toBeLessThanOrEqual(0.05);
        expect(dAz, `azimuths of pass ${i}`).toBeLessThanOrEqual(1);
        expect(p.inProgressAtStart).toBe(r.inProgressAtStart);
        expect(p.inProgressAtEnd).toBe(r.inProgressAtEnd);
      });
    });
  }

  it('reports the worst differences', () => {
    // Informative: the tolerances are asserted per pass above.
    console.log(
      `max |ΔAOS| ${worst.aos.toFixed(1)} ms, |ΔTCA| ${worst.tca.toFixed(1)} ms, |ΔLOS| ${worst.los.toFixed(1)} ms, ` +
        `|Δelev| ${worst.elev.toExponential(2)}°, |Δaz| ${worst.az.toExponential(2)}°`,
    );
  });
});

describe('passes: special cases', () => {
  it('answers always/never for geostationary satellites instead of a pass list', () => {
    const goes18OverMx = findPasses(sat(51850), MX, FROM, TO);
    expect(goes18OverMx.visibility).toBe('always');
    if (goes18OverMx.visibility !== 'passes') {
      expect(goes18OverMx.elevationDeg).toBeCloseTo(lookAngles(sat(51850), MX, FROM).elevationDeg, 9);
      expect(goes18OverMx.elevationDeg).toBeGreaterThan(MX.maskDeg);
    }
    const meteosatOverMx = findPasses(sat(40732), MX, FROM, TO);
    expect(meteosatOverMx.visibility).toBe('never');
    if (meteosatOverMx.visibility !== 'passes') expect(meteosatOverMx.elevationDeg).toBeLessThan(0);
    expect(findPasses(sat(40732), ES, FROM, TO).visibility).toBe('always');
  });

  it('finds a grazing pass that peaks a few thousandths of a degree above the mask', () => {
    const [top] = passesOf(25544, ES).sort((a, b) => a.maxElevationDeg - b.maxElevationDeg);
    const grazing: Station = { ...ES, maskDeg: top!.maxElevationDeg - 0.003 };
    const passes = passesOf(25544, grazing, top!.tcaMs - 3_600_000, top!.tcaMs + 3_600_000);
    expect(passes).toHaveLength(1);
    const p = passes[0]!;
    expect(Math.abs(p.tcaMs - top!.tcaMs)).toBeLessThanOrEqual(2);
    expect(p.maxElevationDeg).toBeCloseTo(top!.maxElevationDeg, 6);
    expect(p.durationS).toBeGreaterThan(0);
    expect(p.durationS).toBeLessThan(60);
    expect(p.aosMs).toBeLessThan(p.tcaMs);
    expect(p.tcaMs).toBeLessThan(p.losMs);
    // Just above the peak there is nothing to find.
    const above: Station = { ...ES, maskDeg: top!.maxElevationDeg + 0.003 };
    expect(passesOf(25544, above, top!.tcaMs - 3_600_000, top!.tcaMs + 3_600_000)).toHaveLength(0);
  });

  it('starts a pass in progress at the window start and ends one still up at the window end', () => {
    const full = passesOf(25544, MX)[0]!;
    const from = Math.round((full.aosMs + full.tcaMs) / 2);
    const to = Math.round((full.tcaMs + full.losMs) / 2);
    const [clipped, ...rest] = passesOf(25544, MX, from, to);
    expect(rest).toHaveLength(0);
    expect(clipped!.inProgressAtStart).toBe(true);
    expect(clipped!.inProgressAtEnd).toBe(true);
    expect(clipped!.aosMs).toBe(from);
    expect(clipped!.losMs).toBe(to);
    expect(Math.abs(clipped!.tcaMs - full.tcaMs)).toBeLessThanOrEqual(2);
    expect(clipped!.durationS).toBeCloseTo((to - from) / 1000, 6);
    expect(clipped!.aosAzimuthDeg).toBeCloseTo(lookAngles(sat(25544), MX, from).azimuthDeg, 6);

    // Starting after the maximum: the highest point of what is left is the window start.
    const late = passesOf(25544, MX, full.tcaMs + 30_000, full.losMs + 600_000)[0]!;
    expect(late.inProgressAtStart).toBe(true);
    expect(late.tcaMs).toBe(full.tcaMs + 30_000);
    expect(Math.abs(late.losMs - full.losMs)).toBeLessThanOrEqual(2);
  });

  it('returns crossings consistent with the look angles at AOS, TCA and LOS', () => {
    for (const p of passesOf(43013, ES)) {
      expect(lookAngles(sat(43013), ES, p.aosMs).elevationDeg).toBeCloseTo(ES.maskDeg, 2);
      expect(lookAngles(sat(43013), ES, p.losMs).elevationDeg).toBeCloseTo(ES.maskDeg, 2);
      const atTca = lookAngles(sat(43013), ES, p.tcaMs).elevationDeg;
      expect(atTca).toBeCloseTo(p.maxElevationDeg, 6);
      expect(lookAngles(sat(43013), ES, p.tcaMs - 5_000).elevationDeg).toBeLessThan(atTca);
      expect(lookAngles(sat(43013), ES, p.tcaMs + 5_000).elevationDeg).toBeLessThan(atTca);
      expect(p.durationS).toBeCloseTo((p.losMs - p.aosMs) / 1000, 9);
      for (const az of [p.aosAzimuthDeg, p.tcaAzimuthDeg, p.losAzimuthDeg]) {
        expect(az).toBeGreaterThanOrEqual(0);
        expect(az).toBeLessThan(360);
      }
    }
  });

  it('handles empty and inverted windows', () => {
    expect(findPasses(sat(25544), MX, FROM, FROM)).toEqual({ visibility: 'passes', passes: [] });
    expect(() => findPasses(sat(25544), MX, TO, FROM)).toThrow(RangeError);
  });

  it('covers the whole catalog, reporting satellites SGP4 cannot propagate as errors', () => {
    const results = findPassesForCatalog(catalog, MX, FROM, TO);
    expect(results.size).toBe(catalog.size);
    expect([...results.values()].some((r) => r instanceof PropagationError)).toBe(false);
    const iss = results.get(25544);
    expect(iss && !(iss instanceof PropagationError) && iss.visibility).toBe('passes');

    const later = Date.parse('2027-06-27T00:00:00Z');
    const decayed = findPassesForCatalog(
      new Map([[44714, catalog.get(44714)!]]),
      MX,
      later,
      later + 3_600_000,
    );
    expect(decayed.get(44714)).toBeInstanceOf(PropagationError);
  });
});
