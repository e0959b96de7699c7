import type { SatRec } from 'satellite.js';
import { epochMs, type GeosynchronousKind, type OrbitalRegime, orbitalElements } from './elements.js';
import { PropagationError } from './propagation-error.js';

const MS_PER_DAY = 86_400_000;

/** How far from its epoch an element set is good for, by regime (README, satdt section). */
export interface RegimeLimits {
  /** Beyond this many days either side of the epoch, answers carry a warning. */
  staleAfterDays: number;
  /** Beyond this many days either side of the epoch, propagation is refused. */
  maxSpanDays: number;
}

/**
 * SGP4's error grows with the time from the epoch, before it as after it. In LEO drag dominates: a few
 * km a day, so after a fortnight a pass is minutes off and after a year the satellite could be anywhere
 * on its orbit (and a decaying one may have re-entered). HEO orbits have a low perigee too (drag) and
 * strong lunisolar terms. MEO and geosynchronous orbits change slowly, but their satellites manoeuvre
 * every few weeks, which no element set foresees.
 */
export const PROPAGATION_LIMITS: Readonly<Record<OrbitalRegime, RegimeLimits>> = {
  LEO: { staleAfterDays: 14, maxSpanDays: 365 },
  MEO: { staleAfterDays: 30, maxSpanDays: 730 },
  GEO: { staleAfterDays: 30, maxSpanDays: 730 },
  HEO: { staleAfterDays: 14, maxSpanDays: 365 },
};

const REGIME_NAMES: Readonly<Record<OrbitalRegime, string>> = {
  LEO: 'LEO (baja)',
  MEO: 'MEO (media)',
  GEO: 'GEO (geosíncrona)',
  HEO: 'HEO (muy excéntrica)',
};

/** What the error of old elements means in each regime, for the warning's second half. */
function driftNote(regime: OrbitalRegime, kind: GeosynchronousKind | undefined): string {
  switch (regime) {
    case 'LEO':
      return (
        'en órbita baja el rozamiento atmosférico desfasa al satélite: su posición puede desviarse cientos ' +
        'de km a lo largo de la órbita y sus pases, minutos'
      );
    case 'MEO':
      return 'en órbita media la órbita cambia despacio, pero la posición ya puede desviarse decenas de km';
    case 'GEO':
      return kind === 'geostationary'
        ? 'un satélite geoestacionario maniobra cada pocas semanas para mantenerse en su posición y los ' +
            'elementos no recogen esas maniobras: su posición en el cielo puede desviarse décimas de grado'
        : 'un satélite geosíncrono maniobra para mantener su órbita, que el Sol y la Luna alteran: su ' +
            'posición en el cielo puede desviarse décimas de grado y sus pases, minutos';
    case 'HEO':
      return (
        'en una órbita muy excéntrica el Sol, la Luna y, cerca del perigeo, la atmósfera alteran la órbita: ' +
        'el paso por el perigeo puede adelantarse o retrasarse minutos'
      );
  }
}

const iso = (ms: number) => new Date(Math.round(ms)).toISOString();
const days = (d: number) => (Math.abs(d) >= 10 ? Math.round(Math.abs(d)) : Math.abs(d).toFixed(1));

export function propagationLimits(satrec: SatRec): RegimeLimits & {
  regime: OrbitalRegime;
  geosynchronousKind?: GeosynchronousKind;
} {
  const { regime, geosynchronousKind } = orbitalElements(satrec);
  return {
    ...PROPAGATION_LIMITS[regime],
    regime,
    ...(geosynchronousKind ? { geosynchronousKind } : {}),
  };
}

/**
 * Refuses instants in [fromMs, toMs] that are not finite or lie beyond the regime's bound from the
 * epoch: there SGP4 still returns numbers (the ISS 76 years before its epoch is 129 million km away),
 * but they are noise, not a position.
 */
export function checkPropagationSpan(satrec: SatRec, fromMs: number, toMs = fromMs): void {
  const noradId = Number(satrec.satnum);
  for (const t of [fromMs, toMs]) {
    if (!Number.isFinite(t)) {
      throw new PropagationError(noradId, t, 'invalid-instant', `${String(t)} no es un instante válido`);
    }
  }
  const epoch = epochMs(satrec);
  const { regime, maxSpanDays } = propagationLimits(satrec);
  const lo = epoch - maxSpanDays * MS_PER_DAY;
  const hi = epoch + maxSpanDays * MS_PER_DAY;
  const bad = fromMs < lo ? fromMs : toMs > hi ? toMs : undefined;
  if (bad === undefined) return;
  const ageDays = (bad - epoch) / MS_PER_DAY;
  throw new PropagationError(
    noradId,
    bad,
    'out-of-span',
    `${iso(bad)} queda ${days(ageDays)} días ${ageDays < 0 ? 'antes' : 'después'} de la época de sus elementos ` +
      `(${iso(epoch)}), y en una órbita ${REGIME_NAMES[regime]} el gemelo no propaga a más de ${maxSpanDays} ` +
      'días de la época: más lejos SGP4 no da una posición sino ruido. Elige un instante entre ' +
      `${iso(lo)} y ${iso(hi)}`,
    { validFromMs: lo, validToMs: hi },
  );
}

/**
 * The warning that goes with an answer computed far from the epoch (either side), in terms of what
 * goes wrong in this satellite's regime; undefined while the elements are fresh.
 */
export function elementWarning(satrec: SatRec, atMs: number): string | undefined {
  const epoch = epochMs(satrec);
  const ageDays = (atMs - epoch) / MS_PER_DAY;
  const { regime, geosynchronousKind, staleAfterDays } = propagationLimits(satrec);
  if (Math.abs(ageDays) <= staleAfterDays) return undefined;
  const when =
    ageDays >= 0
      ? `los elementos orbitales tienen ${days(ageDays)} días (época ${iso(epoch)})`
      : `ese instante es ${days(ageDays)} días anterior a la época de los elementos orbitales ` +
        `(${iso(epoch)}), y hacia atrás SGP4 pierde precisión igual que hacia delante`;
  return (
    `Aviso: ${when}; ${driftNote(regime, geosynchronousKind)}. Usa los resultados como orientación, ` +
    'no para apuntar una antena.'
  );
}
