import type { Health } from '@code-cluster/shared/groundstation';
import type { StationReference } from '../reference/stations.js';
import type { StationEquipment } from './equipment.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Above this gust speed the antennas go to their stow position. */
export const STOW_GUST_M_S = 15;
export const SHELTER_MAX_C = 27;

/**
 * The station's health readings at an instant: a pure function of the station and the time, so the same
 * instant always reads the same and tests reproduce any moment. Readings follow the local solar day, the
 * season of the station's hemisphere and smooth pseudo-random weather, within plausible bounds.
 */
export function healthAt(
  station: StationReference,
  equipment: StationEquipment,
  atMs: number,
  inMaintenance: boolean,
): Health {
  const { climate } = equipment;
  const noise = (channel: string, periodMs: number) => valueNoise(`${station.id}/${channel}`, atMs, periodMs);

  const localHour = (((atMs / HOUR + station.longitudeDeg / 15) % 24) + 24) % 24;
  // The warmest day of the year is near late July in the north and late January in the south.
  const dayOfYear = (atMs % (365.25 * DAY)) / DAY;
  const season = Math.cos((2 * Math.PI * (dayOfYear - 200)) / 365.25) * Math.sign(station.latitudeDeg);
  const daily = Math.sin((2 * Math.PI * (localHour - 9)) / 24);

  const outdoor =
    climate.meanTempC +
    climate.seasonalAmpC * season +
    climate.dailyAmpC * daily +
    1.5 * noise('temp', 3 * HOUR);
  const shelter = 21.5 + 0.08 * (outdoor - climate.meanTempC) + 0.6 * noise('shelter', HOUR);
  const wind = Math.max(0, climate.meanWindMS * (1 + 0.35 * daily) + 1.6 * noise('wind', 2 * HOUR));
  const gust = wind * (1.35 + 0.25 * (noise('gust', 20 * 60_000) + 1));
  // Air conditioning follows the outside heat; stowed antennas in maintenance draw less.
  const load =
    (inMaintenance ? 3.2 : 6.5) + 0.18 * Math.max(0, outdoor - 18) + 0.4 * (noise('load', HOUR) + 1);
  const upsCharge = Math.min(100, 98.6 + 1.2 * noise('ups', 6 * HOUR));

  const antennas = equipment.antennas.map((antenna) => ({
    id: antenna.id,
    band: antenna.band,
    status: inMaintenance ? ('mantenimiento' as const) : ('operativa' as const),
    lna_noise_k: round(
      antenna.nominalLnaK * (1 + 0.006 * (shelter - 21.5)) + 2.5 * noise(`lna/${antenna.id}`, 30 * 60_000),
    ),
  }));

  const alerts: string[] = [];
  if (gust > STOW_GUST_M_S) {
    alerts.push(
      `Rachas de ${round(gust)} m/s: por encima de ${STOW_GUST_M_S} m/s las antenas pasan a posición de resguardo.`,
    );
  }
  if (shelter > SHELTER_MAX_C)
    alerts.push(`Sala de equipos a ${round(shelter)} °C (máximo ${SHELTER_MAX_C} °C).`);
  for (const [i, antenna] of antennas.entries()) {
    const nominal = equipment.antennas[i]!.nominalLnaK;
    if (antenna.lna_noise_k > 1.25 * nominal) {
      alerts.push(`Ruido del LNA de ${antenna.id} alto: ${antenna.lna_noise_k} K (nominal ${nominal} K).`);
    }
  }

  return {
    at: new Date(atMs).toISOString(),
    outdoor_temp_c: round(outdoor),
    shelter_temp_c: round(shelter),
    wind_m_s: round(wind),
    gust_m_s: round(gust),
    power: { mains: true, ups_charge_pct: round(upsCharge), load_kw: round(load) },
    antennas,
    alerts,
  };
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

/** Smooth noise in [-1, 1]: hashed values at knots every `periodMs`, eased in between. */
function valueNoise(seed: string, atMs: number, periodMs: number): number {
  const position = atMs / periodMs;
  const knot = Math.floor(position);
  const t = position - knot;
  const eased = t * t * (3 - 2 * t);
  const a = hashUnit(`${seed}#${knot}`);
  const b = hashUnit(`${seed}#${knot + 1}`);
  return 2 * (a + (b - a) * eased) - 1;
}

/** FNV-1a, then a murmur-style finaliser: a well-spread value in [0, 1) for a string. */
function hashUnit(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}
