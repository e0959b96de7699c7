import { BATTERY_RESERVE_PCT } from '@code-cluster/shared/roverdt';

/** The rover's physical model: what driving costs in energy and time. */

export const BATTERY_CAPACITY_WH = 1_000;
/** Flat driving, Wh per metre (motors, avionics and hazard cameras while moving). */
export const WH_PER_M = 2.5;
/** Extra energy per metre climbed; descending gives nothing back. */
export const WH_PER_M_CLIMB = 8;
/** Cruise speed, m/s (the MER rovers drove at ~0.05 m/s with hazard avoidance on). */
export const SPEED_M_S = 0.05;
/** Where the twin's simulated clock starts for a new rover: 06:00 local on its first sol. */
export const CLOCK_EPOCH_MS = Date.parse('2026-03-01T06:00:00Z');
/** A Martian solar day. */
export const SOL_MS = 88_775_244;

export const RESERVE_WH = (BATTERY_CAPACITY_WH * BATTERY_RESERVE_PCT) / 100;

export function legEnergyWh(distanceM: number, climbM: number): number {
  return distanceM * WH_PER_M + climbM * WH_PER_M_CLIMB;
}

export function driveMs(distanceM: number): number {
  return Math.round((distanceM / SPEED_M_S) * 1000);
}

export const pct = (wh: number) => (wh / BATTERY_CAPACITY_WH) * 100;

/** Local solar hour (0–24) at a simulated instant; the epoch is 06:00. */
export function localHour(clockMs: number): number {
  const sols = (clockMs - CLOCK_EPOCH_MS) / SOL_MS;
  return (6 + (sols - Math.floor(sols)) * 24) % 24;
}

/** 0 at night, rising to 1 at local noon. */
export function daylight(clockMs: number): number {
  const hour = localHour(clockMs);
  return hour < 6 || hour > 18 ? 0 : Math.sin((Math.PI * (hour - 6)) / 12);
}

export const round = (value: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/**
 * The solar panels' output at full sun, W: what the MER rovers' 1.3 m² of arrays gave early in their
 * missions. Output follows `daylight`, the same curve the camera reports as `iluminacion` and the
 * thermometer warms with, so the panels give nothing while those readings say it is night.
 */
export const PANEL_PEAK_W = 140;
/** What the parked rover draws all the time, W: avionics asleep and the survival heaters of the night. */
export const PARKED_LOAD_W = 12;
/** Integration step of the charge, ms of the simulated clock. */
const CHARGE_STEP_MS = 60_000;
/** Longest stretch the twin looks ahead to say when a battery reaches a level: ten sols. */
const LOOKAHEAD_MS = 10 * SOL_MS;

export const solarW = (clockMs: number) => PANEL_PEAK_W * daylight(clockMs);

export interface Parked {
  batteryWh: number;
  /** What the panels gave, Wh. */
  solarWh: number;
  /** What the parked rover drew, Wh. */
  loadWh: number;
}

/**
 * The battery after the rover stays parked from `fromMs` to `toMs`: the panels charge it by day, the parked
 * load drains it at night, and it stays between empty and full (a full battery wastes the surplus).
 */
export function parked(batteryWh: number, fromMs: number, toMs: number): Parked {
  let battery = batteryWh;
  let solarWh = 0;
  let loadWh = 0;
  for (let t = fromMs; t < toMs; t += CHARGE_STEP_MS) {
    const hours = Math.min(CHARGE_STEP_MS, toMs - t) / 3_600_000;
    // The midpoint of each step: the integral of the smooth daylight curve to well under a watt-hour.
    const solar = solarW(t + (hours * 3_600_000) / 2) * hours;
    const load = Math.min(PARKED_LOAD_W * hours, battery + solar);
    const next = Math.min(BATTERY_CAPACITY_WH, battery + solar - load);
    solarWh += Math.max(0, next - battery + load);
    loadWh += load;
    battery = next;
  }
  return { batteryWh: battery, solarWh, loadWh };
}

/**
 * Whole hours of parking after which the battery holds at least `targetWh`, or undefined when it never
 * does within ten sols (a target above what a sol's net charge can ever reach, e.g. more than full).
 */
export function hoursToReach(batteryWh: number, targetWh: number, fromMs: number): number | undefined {
  if (batteryWh >= targetWh) return 0;
  let battery = batteryWh;
  for (let hours = 1; hours * 3_600_000 <= LOOKAHEAD_MS; hours++) {
    const from = fromMs + (hours - 1) * 3_600_000;
    battery = parked(battery, from, from + 3_600_000).batteryWh;
    if (battery >= targetWh) return hours;
  }
  return undefined;
}
