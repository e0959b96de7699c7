import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import { epochMs, orbitalElements } from './elements.js';
import { findPasses, lookAngles } from './passes.js';
import { assertPhysicalState, positionAt, propagateTeme } from './propagate.js';
import { PropagationError } from './propagation-error.js';
import { telemetryAt } from './telemetry.js';
import { checkPropagationSpan, elementWarning, PROPAGATION_LIMITS } from './validity.js';

const here = dirname(fileURLToPath(import.meta.url));
const catalog = loadCatalog(
  readFileSync(join(here, '..', '..', '..', 'data', 'satdt', 'catalog.tle'), 'utf8'),
);
const entry = (id: number) => catalog.get(id)!;
const satrec = (id: number) => entry(id).satrec;
const DAY = 86_400_000;
const MX = { id: 'orbiteye-mx', latDeg: 19.4326, lonDeg: -99.1332, altM: 2240, maskDeg: 10 };
const ISS_1950 = Date.parse('1950-01-01T00:00:00Z');

function failure(work: () => unknown): PropagationError {
  try {
    work();
  } catch (error) {
    if (error instanceof PropagationError) return error;
    throw error;
  }
  throw new Error('expected a PropagationError');
}

describe('propagation span from the epoch, per regime', () => {
  it('refuses the ISS in 1950 instead of answering 129 million km, naming the instants that work', () => {
    const e = failure(() => positionAt(satrec(25544), ISS_1950));
    expect(e.kind).toBe('out-of-span');
    const epoch = epochMs(satrec(25544));
    expect(e.validFromMs).toBe(epoch - 365 * DAY);
    expect(e.validToMs).toBe(epoch + 365 * DAY);
    expect(e.message).toMatch(
      /^1950-01-01T00:00:00\.000Z queda 27936 días antes de la época de sus elementos \(2026-06-26T16:06:15\.917Z\), y en una órbita LEO \(baja\) el gemelo no propaga a más de 365 días de la época: .* Elige un instante entre 2025-06-26T16:06:15\.917Z y 2027-06-26T16:06:15\.917Z$/,
    );
  });

  it('refuses a pass search from 1990 and a window that runs past the bound, in every entry point', () => {
    const iss = satrec(25544);
    const epoch = epochMs(iss);
    expect(
      failure(() =>
        findPasses(iss, MX, Date.parse('1990-01-01T00:00:00Z'), Date.parse('1990-01-02T00:00:00Z')),
      ).kind,
    ).toBe('out-of-span');
    // The start is inside the span, the end is not: the whole window is refused, naming its end.
    const start = epoch + 364 * DAY;
    const late = failure(() => findPasses(iss, MX, start, start + 2 * DAY));
    expect(late.kind).toBe('out-of-span');
    expect(late.atMs).toBe(start + 2 * DAY);
    expect(failure(() => lookAngles(iss, MX, epoch - 366 * DAY)).kind).toBe('out-of-span');
    expect(failure(() => telemetryAt(entry(25544), epoch + 366 * DAY)).kind).toBe('out-of-span');
    // Just inside the bound, both sides, it still answers.
    expect(() => positionAt(iss, epoch - 364 * DAY)).not.toThrow();
    expect(() => positionAt(iss, epoch + 364 * DAY)).not.toThrow();
  });

  it('gives geosynchronous and medium orbits a longer span than low and eccentric ones', () => {
    expect(PROPAGATION_LIMITS.LEO.maxSpanDays).toBeLessThan(PROPAGATION_LIMITS.GEO.maxSpanDays);
    const goes = satrec(51850);
    const epoch = epochMs(goes);
    expect(() => checkPropagationSpan(goes, epoch + 700 * DAY)).not.toThrow();
    expect(failure(() => checkPropagationSpan(goes, epoch + 731 * DAY)).message).toContain(
      'en una órbita GEO (geosíncrona) el gemelo no propaga a más de 730 días',
    );
    const cxo = satrec(25867);
    expect(failure(() => checkPropagationSpan(cxo, epochMs(cxo) - 400 * DAY)).message).toContain('HEO');
  });

  it('refuses a state no orbit of this satellite can have', () => {
    // What SGP4 returns for the ISS in 1950 when nothing stops it: 129 million km at 0.06 km/s.
    const e = failure(() => propagateTeme(satrec(25544), ISS_1950));
    expect(e.kind).toBe('unphysical');
    expect(e.message).toMatch(
      /no es físico: \d{9} km de altitud a 0\.06 km\/s es una órbita de semieje \d+ km, cuando la suya tiene 679\d km$/,
    );
    // Faster than escape at the ISS's radius.
    const unbound = failure(() =>
      assertPhysicalState(
        satrec(25544),
        epochMs(satrec(25544)),
        { x: 6800, y: 0, z: 0 },
        { x: 0, y: 11, z: 0 },
      ),
    );
    expect(unbound.message).toContain('más que la velocidad de escape');
    // A LEO state on a GEO-sized orbit: a speed impossible for the regime.
    const slow = failure(() =>
      assertPhysicalState(
        satrec(25544),
        epochMs(satrec(25544)),
        { x: 6800, y: 0, z: 0 },
        { x: 0, y: 1, z: 0 },
      ),
    );
    expect(slow.message).toContain('una órbita de semieje 3429 km');
  });

  it('never calls a real propagation unphysical anywhere in the catalog within its span', () => {
    let checked = 0;
    for (const { satrec: s } of catalog.values()) {
      const epoch = epochMs(s);
      const { maxSpanDays } = PROPAGATION_LIMITS[orbitalElements(s).regime];
      for (let d = -maxSpanDays; d <= maxSpanDays; d += 3.7) {
        try {
          propagateTeme(s, epoch + d * DAY);
          checked++;
        } catch (error) {
          // A decaying LEO orbit may make SGP4 itself give up; that is a different refusal.
          expect((error as PropagationError).kind).toBe('sgp4');
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });
});

describe('the stale-elements warning', () => {
  it('warns before the epoch as after it, and not while the elements are fresh', () => {
    const iss = satrec(25544);
    const epoch = epochMs(iss);
    expect(elementWarning(iss, epoch + 13 * DAY)).toBeUndefined();
    expect(elementWarning(iss, epoch - 13 * DAY)).toBeUndefined();
    expect(elementWarning(iss, epoch + 20 * DAY)).toMatch(/^Aviso: los elementos orbitales tienen 20 días/);
    expect(elementWarning(iss, epoch - 20 * DAY)).toMatch(
      /^Aviso: ese instante es 20 días anterior a la época de los elementos orbitales/,
    );
  });

  it('speaks of what goes wrong in each regime', () => {
    const at = (id: number) => elementWarning(satrec(id), epochMs(satrec(id)) + 60 * DAY)!;
    expect(at(25544)).toContain('en órbita baja el rozamiento atmosférico');
    expect(at(37846)).toContain('en órbita media');
    expect(at(51850)).toContain('un satélite geoestacionario maniobra');
    expect(at(42738)).toContain('un satélite geosíncrono maniobra');
    expect(at(25867)).toContain('órbita muy excéntrica');
    for (const id of [37846, 51850, 42738, 25867]) expect(at(id)).not.toContain('órbita baja');
    // A GEO orbit is fresh for longer than a LEO one.
    expect(elementWarning(satrec(51850), epochMs(satrec(51850)) + 20 * DAY)).toBeUndefined();
  });
});
