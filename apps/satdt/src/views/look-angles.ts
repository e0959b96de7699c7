/** Azimuth and elevation of a satellite seen from a station, from the sub-satellite point and altitude (WGS84). */

const A = 6378.137; // WGS84 semi-major axis, km
const E2 = 6.69437999014e-3; // WGS84 first eccentricity squared
const RAD = Math.PI / 180;

function ecef(latDeg: number, lonDeg: number, altKm: number): [number, number, number] {
  const lat = latDeg * RAD;
  const lon = lonDeg * RAD;
  const n = A / Math.sqrt(1 - E2 * Math.sin(lat) ** 2);
  return [
    (n + altKm) * Math.cos(lat) * Math.cos(lon),
    (n + altKm) * Math.cos(lat) * Math.sin(lon),
    (n * (1 - E2) + altKm) * Math.sin(lat),
  ];
}

export interface Geodetic {
  latitude_deg: number;
  longitude_deg: number;
  altitude_km: number;
}

export function lookAngles(
  station: Geodetic,
  satellite: Geodetic,
): { azimuth_deg: number; elevation_deg: number } {
  const [sx, sy, sz] = ecef(station.latitude_deg, station.longitude_deg, station.altitude_km);
  const [px, py, pz] = ecef(satellite.latitude_deg, satellite.longitude_deg, satellite.altitude_km);
  const [dx, dy, dz] = [px - sx, py - sy, pz - sz];
  const lat = station.latitude_deg * RAD;
  const lon = station.longitude_deg * RAD;
  // The range vector in the station's east-north-up frame.
  const east = -Math.sin(lon) * dx + Math.cos(lon) * dy;
  const north = -Math.sin(lat) * Math.cos(lon) * dx - Math.sin(lat) * Math.sin(lon) * dy + Math.cos(lat) * dz;
  const up = Math.cos(lat) * Math.cos(lon) * dx + Math.cos(lat) * Math.sin(lon) * dy + Math.sin(lat) * dz;
  const azimuth = Math.atan2(east, north) / RAD;
  return {
    azimuth_deg: (azimuth + 360) % 360,
    elevation_deg: Math.atan2(up, Math.hypot(east, north)) / RAD,
  };
}
