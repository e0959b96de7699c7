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
