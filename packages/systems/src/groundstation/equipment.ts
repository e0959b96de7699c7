import type { Band } from '@code-cluster/shared/groundstation';
import type { StationReference } from '../reference/stations.js';

/** One antenna of a station, with the nominal figures its health readings vary around. */
export interface AntennaReference {
  id: string;
  band: Band;
  diameterM: number;
  downlinkMhz: number;
  /** Noise temperature of its low-noise amplifier when healthy, kelvin. */
  nominalLnaK: number;
}

/** The climate a station's readings follow: yearly mean, seasonal and daily swings (°C), mean wind (m/s). */
export interface Climate {
  meanTempC: number;
  seasonalAmpC: number;
  dailyAmpC: number;
  meanWindMS: number;
}

export interface StationEquipment {
  antennas: readonly AntennaReference[];
  climate: Climate;
  /**
   * The standing maintenance of a station whose reference status is `mantenimiento`: seeded once, when the
   * store is created, as a stored window with fixed ends like any other (an operator can cancel it).
   */
  referenceMaintenance?: ReferenceMaintenance;
}

export interface ReferenceMaintenance {
  /** Fixed, so that every install agrees: `mt-` and 12 hex digits, like the ids the system hands out. */
  id: string;
  start: string;
  end: string;
  reason: string;
}

const S_BAND = { band: 'S', downlinkMhz: 2245, nominalLnaK: 45 } as const;
const X_BAND = { band: 'X', downlinkMhz: 8160, nominalLnaK: 80 } as const;
const UHF = { band: 'UHF', downlinkMhz: 437.5, nominalLnaK: 260 } as const;

/**
 * Two antennas per station; the first is the general-purpose S-band dish the system prefers when a booking
 * names none. Keyed by the station ids of reference/stations.ts.
 */
export const EQUIPMENT: Readonly<Record<string, StationEquipment>> = {
  'orbiteye-mx': {
    antennas: [
      { id: 'mx-s1', diameterM: 3.7, ...S_BAND },
      { id: 'mx-x1', diameterM: 7.3, ...X_BAND },
    ],
    climate: { meanTempC: 16.5, seasonalAmpC: 2.5, dailyAmpC: 7, meanWindMS: 2.5 },
  },
  'orbiteye-cl': {
    antennas: [
      { id: 'cl-s1', diameterM: 3.7, ...S_BAND },
      { id: 'cl-u1', diameterM: 2.1, ...UHF },
    ],
    climate: { meanTempC: 14.5, seasonalAmpC: 6, dailyAmpC: 8, meanWindMS: 2 },
    // From 2026-11-23 to 2027-01-15: the LNA swap and the rotor overhaul of the 2026 southern summer.
    referenceMaintenance: {
      id: 'mt-00000000c1a0',
      start: '2026-11-23T00:00:00Z',
      end: '2027-01-15T00:00:00Z',
      reason: 'Sustitución del LNA de banda S y revisión del rotor de elevación',
    },
  },
  'orbiteye-es': {
    antennas: [
      { id: 'es-s1', diameterM: 5.4, ...S_BAND },
      { id: 'es-x1', diameterM: 7.3, ...X_BAND },
    ],
    climate: { meanTempC: 15, seasonalAmpC: 9, dailyAmpC: 7, meanWindMS: 3.5 },
  },
};

export function equipmentOf(station: StationReference): StationEquipment {
  const equipment = EQUIPMENT[station.id];
  if (!equipment) throw new Error(`no equipment defined for station ${station.id}`);
  return equipment;
}
