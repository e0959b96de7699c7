import { describe, expect, it } from 'vitest';
import { STATIONS } from '../reference/stations.js';
import { EQUIPMENT } from './equipment.js';
import { healthAt } from './health.js';

const T0 = Date.parse('2026-06-27T00:00:00Z');
const HOUR = 3_600_000;
const mx = STATIONS.find((s) => s.id === 'orbiteye-mx')!;

describe('healthAt', () => {
  it('reads the same at the same instant, every time', () => {
    for (const station of STATIONS) {
      const equipment = EQUIPMENT[station.id]!;
      expect(healthAt(station, equipment, T0 + 1234, false)).toEqual(
        healthAt(station, equipment, T0 + 1234, false),
      );
    }
  });

  it('varies over time and between stations', () => {
    const readings = Array.from({ length: 24 }, (_, h) =>
      healthAt(mx, EQUIPMENT[mx.id]!, T0 + h * HOUR, false),
    );
    expect(new Set(readings.map((r) => r.outdoor_temp_c)).size).toBeGreaterThan(12);
    expect(new Set(readings.map((r) => r.wind_m_s)).size).toBeGreaterThan(12);
    const es = STATIONS.find((s) => s.id === 'orbiteye-es')!;
    expect(healthAt(es, EQUIPMENT[es.id]!, T0, false).outdoor_temp_c).not.toBe(readings[0]!.outdoor_temp_c);
  });

  it('stays within plausible bounds over a year, hour by hour', () => {
    for (const station of STATIONS) {
      const equipment = EQUIPMENT[station.id]!;
      for (let h = 0; h < 365 * 24; h += 7) {
        const r = healthAt(station, equipment, T0 + h * HOUR, false);
        expect(r.outdoor_temp_c).toBeGreaterThan(-10);
        expect(r.outdoor_temp_c).toBeLessThan(40);
        expect(r.shelter_temp_c).toBeGreaterThan(18);
        expect(r.shelter_temp_c).toBeLessThan(25);
        expect(r.wind_m_s).toBeGreaterThanOrEqual(0);
        expect(r.gust_m_s).toBeGreaterThanOrEqual(r.wind_m_s);
        expect(r.power.ups_charge_pct).toBeLessThanOrEqual(100);
        for (const [i, antenna] of r.antennas.entries()) {
          const nominal = equipment.antennas[i]!.nominalLnaK;
          expect(antenna.lna_noise_k).toBeGreaterThan(nominal * 0.9);
          expect(antenna.lna_noise_k).toBeLessThan(nominal * 1.2);
        }
      }
    }
  });

  it('follows the local day: afternoons are warmer than dawns', () => {
    // Mexico City is UTC-6.6 in solar time: 21:00Z is mid-afternoon there, 12:00Z is dawn.
    let warmer = 0;
    for (let day = 0; day < 30; day++) {
      const afternoon = healthAt(mx, EQUIPMENT[mx.id]!, T0 + day * 24 * HOUR + 21 * HOUR, false);
      const dawn = healthAt(mx, EQUIPMENT[mx.id]!, T0 + day * 24 * HOUR + 12 * HOUR, false);
      if (afternoon.outdoor_temp_c > dawn.outdoor_temp_c) warmer++;
    }
    expect(warmer).toBeGreaterThanOrEqual(28);
  });

  it('marks every antenna in maintenance and lowers the load while the station is in maintenance', () => {
    const cl = STATIONS.find((s) => s.id === 'orbiteye-cl')!;
    const up = healthAt(cl, EQUIPMENT[cl.id]!, T0, false);
    const down = healthAt(cl, EQUIPMENT[cl.id]!, T0, true);
    expect(down.antennas.every((a) => a.status === 'mantenimiento')).toBe(true);
    expect(up.antennas.every((a) => a.status === 'operativa')).toBe(true);
    expect(down.power.load_kw).toBeLessThan(up.power.load_kw);
  });
});
