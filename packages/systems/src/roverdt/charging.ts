import { MAX_WAIT_HOURS, type WaitResult } from '@code-cluster/shared/roverdt';
import { isoUtc } from '../time.js';
import type { Fleet } from './fleet.js';
import { parked, pct, round } from './model.js';
import type { RoverRow } from './store.js';

/** Parks the rover: its clock moves on, the panels charge it by day and the parked load drains it. */
export function waitFor(fleet: Fleet, roverId: string, hours: number): Promise<WaitResult> {
  return fleet.store.transaction(async (tx) => {
    // Locked: a leg driven from another replica meanwhile waits, and neither loses the other's update.
    const r = await fleet.rover(roverId, tx, true);
    const before = r.battery_wh;
    const from = r.clock_ms;
    const to = from + hours * 3_600_000;
    const after = parked(before, from, to);
    r.battery_wh = after.batteryWh;
    r.clock_ms = to;
    await tx.updateRover(r);
    return {
      rover: await fleet.roverDto(r, tx),
      hours,
      from: isoUtc(from),
      to: isoUtc(to),
      solar_wh: round(after.solarWh),
      load_wh: round(after.loadWh),
      gained_wh: round(after.batteryWh - before),
      battery_before_pct: round(pct(before)),
    };
  });
}

/** How long to park before the energy is there, in words a model can act on (esperar takes 1–48 h). */
export function waitAdvice(r: RoverRow, hours: number | undefined): string {
  if (hours === undefined) {
    return (
      'Ni con los paneles a pleno se llega a esa energía (haría falta más que la batería llena): ve por ' +
      'etapas más cortas.'
    );
  }
  const calls =
    hours > MAX_WAIT_HOURS
      ? ` (en ${Math.ceil(hours / MAX_WAIT_HOURS)} llamadas: cada una admite hasta ${MAX_WAIT_HOURS} h)`
      : '';
  return (
    `Los paneles solares la recargan: espera unas ${hours} h del reloj del rover con esperar ` +
    `{rover_id: '${r.id}', horas: ${Math.min(hours, MAX_WAIT_HOURS)}}${calls} y vuelve a planificar.`
  );
}
