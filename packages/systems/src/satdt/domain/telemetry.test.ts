import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from './catalog.js';
import { positionAt } from './propagate.js';
import { isSunlit, sunPosition } from './sun.js';
import { powerProfile, telemetryAt } from './telemetry.js';

const here = dirname(fileURLToPath(import.meta.url));
const catalog = loadCatalog(
  readFileSync(join(here, '..', '..', '..', 'data', 'satdt', 'catalog.tle'), 'utf8'),
);
const T0 = Date.parse('2026-06-27T00:00:00Z');
const iss = catalog.get(25544)!;

function sunlitAt(tMs: number): boolean {
  return isSunlit(positionAt(iss.satrec, tMs).positionKm, sunPosition(tMs).unit);
}

/** Instants of one ISS orbit, 2 min apart, split by illumination. */
function orbitInstants(): { lit: number[]; dark: number[] } {
  const lit: number[] = [];
  const dark: number[] = [];
  for (let t = T0; t < T0 + 93 * 60_000; t += 120_000) (sunlitAt(t) ? lit : dark).push(t);
  return { lit, dark };
}

describe('telemetry', () => {
  it('sees the ISS both in sunlight and in eclipse over one orbit', () => {
    const { lit, dark } = orbitInstants();
    expect(lit.length).toBeGreaterThan(20);
    expect(dark.length).toBeGreaterThan(10);
  });

  it('in eclipse: not charging, battery current negative, no array power', () => {
    for (const t of orbitInstants().dark) {
      const tm = telemetryAt(iss, t);
      expect(tm.sunlit).toBe(false);
      expect(tm.charging).toBe(false);
      expect(tm.batteryCurrentA).toBeLessThan(0);
      expect(tm.powerGeneratedW).toBe(0);
    }
  });

  it('in sunlight: charging with a positive current', () => {
    for (const t of orbitInstants().lit) {
      const tm = telemetryAt(iss, t);
      expect(tm.sunlit).toBe(true);
      expect(tm.charging).toBe(true);
      expect(tm.batteryCurrentA).toBeGreaterThan(0);
      expect(tm.powerGeneratedW).toBeGreaterThan(tm.powerConsumedW);
    }
  });

  it('keeps every satellite within physical bounds and a mode that matches its battery', () => {
    for (const entry of catalog.values()) {
      for (const t of [T0, T0 + 7 * 3_600_000 + 123]) {
        const tm = telemetryAt(entry, t);
        expect(tm.batteryPct).toBeGreaterThanOrEqual(0);
        expect(tm.batteryPct).toBeLessThanOrEqual(100);
        expect(tm.panelTempC).toBeGreaterThan(-110);
        expect(tm.panelTempC).toBeLessThan(90);
        expect(tm.batteryTempC).toBeGreaterThan(0);
        expect(tm.batteryTempC).toBeLessThan(30);
        if (entry.status === 'retirado') expect(tm.mode).toBe('inactivo');
        else if (tm.batteryPct < 10) expect(tm.mode).toBe('seguro');
        else if (tm.batteryPct < 25) expect(tm.mode).toBe('ahorro');
        else expect(tm.mode).toBe('nominal');
        if (!tm.sunlit) expect(tm.batteryCurrentA).toBeLessThan(0);
      }
    }
  });

  it('is deterministic for the same instant and varies smoothly in time', () => {
    const a = telemetryAt(iss, T0 + 1234.5);
    const b = telemetryAt(iss, T0 + 1234.5);
    expect(a).toEqual(b);
    const c = telemetryAt(iss, T0 + 1234.5 + 1000);
    expect(Math.abs(c.batteryPct - a.batteryPct)).toBeLessThan(0.5);
    expect(powerProfile(25544)).toEqual(powerProfile(25544));
    expect(powerProfile(25544)).not.toEqual(powerProfile(25545));
  });

  it('warms the panels in sunlight and cools them in eclipse', () => {
    const { lit, dark } = orbitInstants();
    const lastLit = telemetryAt(iss, lit.at(-1)!);
    const lastDark = telemetryAt(iss, dark.at(-1)!);
    expect(lastLit.panelTempC).toBeGreaterThan(lastDark.panelTempC);
  });

  it('reports retired satellites as inactive', () => {
    expect(telemetryAt(catalog.get(33591)!, T0).mode).toBe('inactivo');
  });
});
