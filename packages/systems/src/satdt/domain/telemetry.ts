import type { SatRec } from 'satellite.js';
import type { OperationalStatus } from './catalog.js';
import { epochMs } from './elements.js';
import { propagateTeme } from './propagate.js';
import { isSunlit, sunPosition } from './sun.js';
import { checkPropagationSpan } from './validity.js';

/** Operating mode as the twin reports it (Spanish: it reaches the MCP surface verbatim). */
export type TwinMode = 'nominal' | 'ahorro' | 'seguro' | 'inactivo';

export interface Telemetry {
  atMs: number;
  sunlit: boolean;
  /** The arrays feed the battery whenever the satellite is sunlit (tapering near full). */
  charging: boolean;
  /** State of charge, 0–100 %. */
  batteryPct: number;
  /** Positive while charging, negative while discharging. */
  batteryCurrentA: number;
  batteryVoltageV: number;
  /** Solar array output (0 in eclipse). */
  powerGeneratedW: number;
  /** Spacecraft load, which depends on the mode. */
  powerConsumedW: number;
  panelTempC: number;
  batteryTempC: number;
  electronicsTempC: number;
  mode: TwinMode;
}

/** Invented but plausible spacecraft parameters, fixed per NORAD id so every run agrees. */
export interface PowerProfile {
  capacityWh: number;
  /** Load in nominal mode. */
  nominalLoadW: number;
  /** Array output in sunlight. */
  solarW: number;
  batteryCells: number;
  initialBatteryPercent: number;
  panelSunC: number;
  panelEclipseC: number;
  batterySunC: number;
  batteryEclipseC: number;
  electronicsSunC: number;
  electronicsEclipseC: number;
}

const HISTORY_MS = 86_400_000;
const STEP_MS = 60_000;
/**
 * Orbits SGP4 handles as deep space (periods ≥ 225 min) cost 2–5× more per call and have eclipses of
 * tens of minutes at least: a 5-min step keeps them as cheap as a low orbit at 60 s.
 */
const DEEP_SPACE_STEP_MS = 300_000;
const CHARGE_EFFICIENCY = 0.92;
/** Charge acceptance in C (fraction of capacity per hour), and the top of charge where it tapers. */
const MAX_CHARGE_RATE_C = 0.5;
const TAPER_FROM_SOC = 0.9;
/** Float charge that keeps a full battery topped up in sunlight (C/200). */
const TRICKLE_RATE_C = 0.005;
/** Load scaling per mode: non-essential payloads and heaters are shed as the battery runs low. */
const LOAD_FACTOR: Readonly<Record<TwinMode, number>> = {
  nominal: 1,
  ahorro: 0.6,
  seguro: 0.35,
  inactivo: 0.1,
};
/** First-order thermal time constants (min): thin panels follow the Sun fast, the battery slowly. */
const TAU_PANEL_MIN = 8;
const TAU_BATTERY_MIN = 90;
const TAU_ELECTRONICS_MIN = 40;

/** Deterministic value in [0, 1) from a NORAD id and a salt (a 32-bit integer mix). */
function unitHash(noradId: number, salt: number): number {
  let h = (Math.imul(noradId, 0x9e3779b1) ^ Math.imul(salt + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
}

/**
 * The solar array always out-powers the nominal load in sunlight (1.5–2.5×), so "sunlit ⇒ charging"
 * holds; whether an orbit's energy balance is positive depends on its eclipse fraction, so some
 * satellites sink into power-saving modes and shed load until the balance recovers.
 */
export function powerProfile(noradId: number): PowerProfile {
  const u = (salt: number) => unitHash(noradId, salt);
  const nominalLoadW = 10 + 90 * u(1);
  return {
    nominalLoadW,
    capacityWh: nominalLoadW * (1.5 + 2.5 * u(2)),
    solarW: nominalLoadW * (1.5 + 1.0 * u(3)),
    batteryCells: u(4) < 0.5 ? 4 : 8,
    initialBatteryPercent: 50 + 40 * u(5),
    panelSunC: 55 + 30 * u(6),
    panelEclipseC: -70 - 30 * u(7),
    batterySunC: 18 + 6 * u(8),
    batteryEclipseC: 8 + 4 * u(9),
    electronicsSunC: 30 + 10 * u(10),
    electronicsEclipseC: 15 + 5 * u(11),
  };
}

function modeFor(status: OperationalStatus, soc: number): TwinMode {
  if (status === 'retirado') return 'inactivo';
  if (soc < 0.1) return 'seguro';
  if (soc < 0.25) return 'ahorro';
  return 'nominal';
}

/** Power into (positive) or out of (negative) the battery, W. */
function batteryPower(p: PowerProfile, sunlit: boolean, soc: number, loadW: number): number {
  if (!sunlit) return -loadW;
  const surplus = (p.solarW - loadW) * CHARGE_EFFICIENCY;
  const taper = soc <= TAPER_FROM_SOC ? 1 : (1 - soc) / (1 - TAPER_FROM_SOC);
  return Math.max(TRICKLE_RATE_C * p.capacityWh, Math.min(surplus, MAX_CHARGE_RATE_C * p.capacityWh * taper));
}

export interface TelemetrySubject {
  noradId: number;
  satrec: SatRec;
  status: OperationalStatus;
}

/**
 * The twin's state at `tMs`. Deterministic: the battery and temperatures are integrated over the
 * previous 24 h in 60 s steps (5 min for deep-space orbits) on a fixed UTC grid, from a
 * fixed per-satellite state, with the real orbit deciding sunlight and eclipse at each step. A day is
 * long enough for the thermal lags and most of the battery's memory to settle, short enough to stay
 * cheap (at most ~1.4 k SGP4 calls, 1–3 ms).
 */
export function telemetryAt(subject: TelemetrySubject, tMs: number): Telemetry {
  checkPropagationSpan(subject.satrec, tMs);
  const p = powerProfile(subject.noradId);
  const epoch = epochMs(subject.satrec);
  const sunlitAt = (t: number): boolean =>
    isSunlit(propagateTeme(subject.satrec, t, epoch).r, sunPosition(t).unit);

  const panelMid = (p.panelSunC + p.panelEclipseC) / 2;
  const batteryMid = (p.batterySunC + p.batteryEclipseC) / 2;
  const electronicsMid = (p.electronicsSunC + p.electronicsEclipseC) / 2;
  let soc = p.initialBatteryPercent / 100;
  let panel = panelMid;
  let battery = batteryMid;
  let electronics = electronicsMid;

  const advance = (sunlit: boolean, dtMs: number): void => {
    const mode = modeFor(subject.status, soc);
    const loadW = p.nominalLoadW * LOAD_FACTOR[mode];
    const dtH = dtMs / 3_600_000;
    soc += (batteryPower(p, sunlit, soc, loadW) * dtH) / p.capacityWh;
    soc = Math.min(1, Math.max(0, soc));
    const dtMin = dtMs / 60_000;
    panel += ((sunlit ? p.panelSunC : p.panelEclipseC) - panel) * (1 - Math.exp(-dtMin / TAU_PANEL_MIN));
    battery +=
      ((sunlit ? p.batterySunC : p.batteryEclipseC) - battery) * (1 - Math.exp(-dtMin / TAU_BATTERY_MIN));
    electronics +=
      ((sunlit ? p.electronicsSunC : p.electronicsEclipseC) - electronics) *
      (1 - Math.exp(-dtMin / TAU_ELECTRONICS_MIN));
  };

  const step = subject.satrec.method === 'd' ? DEEP_SPACE_STEP_MS : STEP_MS;
  const lastGrid = Math.floor(tMs / step) * step;
  let t = lastGrid - HISTORY_MS;
  // Each step uses the illumination at its start: the step is short next to any eclipse.
  while (t < lastGrid) {
    advance(sunlitAt(t), step);
    t += step;
  }
  if (tMs > lastGrid) advance(sunlitAt(lastGrid), tMs - lastGrid);

  const sunlit = sunlitAt(tMs);
  const mode = modeFor(subject.status, soc);
  const loadW = p.nominalLoadW * LOAD_FACTOR[mode];
  const voltage = p.batteryCells * (3.3 + 0.9 * soc);
  const powerW = batteryPower(p, sunlit, soc, loadW);
  return {
    atMs: tMs,
    sunlit,
    charging: sunlit,
    batteryPct: soc * 100,
    batteryCurrentA: powerW / voltage,
    batteryVoltageV: voltage,
    powerGeneratedW: sunlit ? p.solarW : 0,
    powerConsumedW: loadW,
    panelTempC: panel,
    batteryTempC: battery,
    electronicsTempC: electronics,
    mode,
  };
}
