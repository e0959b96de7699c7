import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import {
  classifyGeosynchronous,
  classifyRegime,
  elementSetAgeDays,
  epochMs,
  orbitalElements,
} from './elements.js';

const here = dirname(fileURLToPath(import.meta.url));
const catalog = loadCatalog(
  readFileSync(join(here, '..', '..', '..', 'data', 'satdt', 'catalog.tle'), 'utf8'),
);
const satrec = (id: number) => catalog.get(id)!.satrec;

describe('orbital elements', () => {
  it('classifies the shipped catalog as 39 LEO, 5 MEO, 5 HEO and 7 GEO (PROVENANCE.md)', () => {
    const counts: Record<string, number> = {};
    for (const entry of catalog.values()) {
      const { regime } = orbitalElements(entry.satrec);
      counts[regime] = (counts[regime] ?? 0) + 1;
    }
    expect(counts).toEqual({ LEO: 39, MEO: 5, HEO: 5, GEO: 7 });
  });

  it('tells geostationary satellites from inclined geosynchronous ones (QZS-2)', () => {
    const kinds = new Map<string, string | undefined>();
    for (const entry of catalog.values()) {
      const { regime, geosynchronousKind } = orbitalElements(entry.satrec);
      if (regime === 'GEO') kinds.set(entry.name, geosynchronousKind);
      else expect(geosynchronousKind).toBeUndefined();
    }
    // QZS-2: one sidereal day, e 0.076, i 39°: geosynchronous, but it draws an 8 over Japan and Australia.
    expect(kinds.get('QZS-2 (MICHIBIKI-2)')).toBe('inclined');
    // METEOSAT-11 and MORELOS 3 fly inclined operations at 3.2°: still geostationary for a ground station.
    expect(
      [...kinds.entries()]
        .filter(([, k]) => k === 'geostationary')
        .map(([n]) => n)
        .sort(),
    ).toEqual(['GOES 17', 'GOES 18', 'GOES 19', 'METEOSAT-11 (MSG-4)', 'MEXSAT 3', 'MORELOS 3']);
    expect(classifyGeosynchronous(0.02, 0.1)).toBe('eccentric');
    expect(classifyGeosynchronous(0.075, 39)).toBe('inclined');
    expect(classifyGeosynchronous(0.0002, 3.2)).toBe('geostationary');
  });

  it('derives the ISS elements in readable units', () => {
    const e = orbitalElements(satrec(25544));
    expect(e.regime).toBe('LEO');
    expect(e.inclinationDeg).toBeCloseTo(51.6322, 4);
    expect(e.eccentricity).toBeCloseTo(0.0004299, 7);
    expect(e.meanMotionRevPerDay).toBeCloseTo(15.49442433, 8);
    expect(e.periodMin).toBeCloseTo(1440 / 15.49442433, 6);
    expect(e.semiMajorAxisKm).toBeGreaterThan(6790);
    expect(e.semiMajorAxisKm).toBeLessThan(6810);
    expect(e.perigeeAltitudeKm).toBeGreaterThan(400);
    expect(e.apogeeAltitudeKm).toBeLessThan(440);
    expect(e.apogeeAltitudeKm - e.perigeeAltitudeKm).toBeCloseTo(2 * e.eccentricity * e.semiMajorAxisKm, 6);
    expect(e.raanDeg).toBeCloseTo(253.1475, 4);
    expect(e.argOfPerigeeDeg).toBeCloseTo(235.1263, 4);
    expect(e.meanAnomalyDeg).toBeCloseTo(124.9322, 4);
  });

  it('reports the epoch as ISO-8601 UTC with milliseconds, straight from the TLE day of year', () => {
    // 26177.67101756 → day 177 of 2026 (26 June) + 0.67101756 d = 16:06:15.917 UTC.
    const e = orbitalElements(satrec(25544));
    expect(e.epoch).toBe('2026-06-26T16:06:15.917Z');
    expect(epochMs(satrec(25544))).toBeCloseTo(Date.UTC(2026, 5, 26) + 0.67101756 * 86_400_000, 3);
    expect(elementSetAgeDays(satrec(25544), Date.parse('2026-06-27T16:06:15.917Z'))).toBeCloseTo(1, 6);
    expect(orbitalElements(satrec(25338)).epoch.startsWith('2025-08-0')).toBe(true);
  });

  it('recognises geosynchronous and highly eccentric orbits', () => {
    const goes18 = orbitalElements(satrec(51850));
    expect(goes18.regime).toBe('GEO');
    expect(goes18.periodMin).toBeCloseTo(1436, 0);
    expect(goes18.apogeeAltitudeKm).toBeGreaterThan(35_700);
    expect(orbitalElements(satrec(44453)).regime).toBe('HEO');
    expect(orbitalElements(satrec(43873)).regime).toBe('MEO');
  });

  it('applies the rule in order: eccentricity, then period, then apogee', () => {
    expect(classifyRegime(0.7, 1.0027, 40_000)).toBe('HEO');
    expect(classifyRegime(0.07, 1.0, 39_000)).toBe('GEO');
    expect(classifyRegime(0.001, 15.5, 420)).toBe('LEO');
    expect(classifyRegime(0.001, 12, 1999)).toBe('LEO');
    expect(classifyRegime(0.01, 2.0, 20_200)).toBe('MEO');
  });
});
