import { refuse } from '../refusal.js';

/**
 * The cluster's ground stations (CONTRACT.md reference data). The satellite twin computes passes over
 * them and the ground station system operates them; both read this one table.
 */
export interface StationReference {
  id: string;
  name: string;
  city: string;
  latitudeDeg: number;
  longitudeDeg: number;
  altitudeM: number;
  elevationMaskDeg: number;
  status: 'operativa' | 'mantenimiento';
}

export const STATIONS: readonly StationReference[] = [
  {
    id: 'orbiteye-mx',
    name: 'OrbitEye México',
    city: 'Ciudad de México',
    latitudeDeg: 19.4326,
    longitudeDeg: -99.1332,
    altitudeM: 2240,
    elevationMaskDeg: 10,
    status: 'operativa',
  },
  {
    id: 'orbiteye-cl',
    name: 'OrbitEye Chile',
    city: 'Santiago de Chile',
    latitudeDeg: -33.4489,
    longitudeDeg: -70.6693,
    altitudeM: 570,
    elevationMaskDeg: 10,
    status: 'mantenimiento',
  },
  {
    id: 'orbiteye-es',
    name: 'OrbitEye España',
    city: 'Madrid',
    latitudeDeg: 40.4168,
    longitudeDeg: -3.7038,
    altitudeM: 667,
    elevationMaskDeg: 5,
    status: 'operativa',
  },
];

export function findStation(id: string): StationReference | undefined {
  return STATIONS.find((station) => station.id === id);
}

/** The station named `id`; a 404 refusal naming the stations there are when none is. */
export function stationOr404(id: string): StationReference {
  const found = findStation(id);
  if (!found) {
    throw refuse.notFound(
      `No existe la estación '${id}'. Estaciones disponibles: ${STATIONS.map((s) => s.id).join(', ')}.`,
      { station: id },
    );
  }
  return found;
}
