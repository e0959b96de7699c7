import type { SatRec } from 'satellite.js';
import type { Catalog } from './catalog.js';
import { epochMs, isGeosynchronous, meanMotionRevPerDay } from './elements.js';
import { gmstRad, PropagationError, propagateTeme } from './propagate.js';
import { brentMax, brentRoot } from './solvers.js';
import { checkPropagationSpan } from './validity.js';

export interface Station {
  id: string;
  latDeg: number;
  lonDeg: number;
  altM: number;
  /** Elevation mask: a pass is the time the satellite spends above this elevation. */
  maskDeg: number;
}

export interface Pass {
  /** Acquisition of signal: elevation rises through the mask (or the window start, see inProgressAtStart). */
  aosMs: number;
  /** Time of closest approach: maximum elevation within [AOS, LOS]. */
  tcaMs: number;
  /** Loss of signal: elevation falls through the mask (or the window end, see inProgressAtEnd). */
  losMs: number;
  maxElevationDeg: number;
  aosAzimuthDeg: number;
  tcaAzimuthDeg: number;
  losAzimuthDeg: number;
  durationS: number;
  /** Already above the mask when the window starts: AOS is the window start, not a rise. */
  inProgressAtStart: boolean;
  /** Still above the mask when the window ends: LOS is the window end, not a set. */
  inProgressAtEnd: boolean;
}

/**
 * A geosynchronous satellite that never crosses the mask during the window has no passes: it is either
 * always or never in view, and a single "pass" as long as the window would mislead.
 */
export type PassSearchResult =
  | { visibility: 'passes'; passes: Pass[] }
  | { visibility: 'always' | 'never'; elevationDeg: number };

export interface LookAngles {
  elevationDeg: number;
  /** Clockwise from north, [0, 360). */
  azimuthDeg: number;
  rangeKm: number;
}

const DEG = Math.PI / 180;
const RAD = 180 / Math.PI;
const WGS84_A_KM = 6378.137;
const WGS84_F = 1 / 298.257223563;
const WGS84_E2 = WGS84_F * (2 - WGS84_F);
const SGP4_MU_KM3_S2 = 398600.8;
/** Rate of GMST (IAU-82), rad/s: the Earth-fixed frame turns at this rate under TEME. */
const EARTH_ROTATION_RAD_S = 7.292115855e-5;

/**
 * Sampling step in central angle: between two samples the satellite moves at most this far across
 * the sky as seen from the Earth's centre. Elevation has about one maximum and one minimum per
 * revolution (more only for eccentric orbits near apogee, which are slow), so 0.15 rad (~1/40 of a
 * revolution) never puts two extrema between samples. A whole pass can still fit between two samples
 * (a grazing one lasts seconds): it is caught by the sign change of the elevation rate, not by the
 * samples themselves.
 */
const STEP_ANGLE_RAD = 0.15;
const MIN_STEP_MS = 10_000;
const MAX_STEP_MS = 20 * 60_000;
/** A geosynchronous satellite hardly moves in the sky: its elevation changes over hours, not minutes. */
const MAX_STEP_GEOSYNC_MS = 60 * 60_000;
/** Margins of the "cannot be above the mask" test that lets the sampler skip far-away stretches. */
const SKIP_MASK_MARGIN_RAD = 1 * DEG;
const SKIP_RATE_MARGIN = 1.1;

/** Station and satellite geometry at one instant; fields are reused to keep the sampler allocation-free. */
class Geometry {
  private readonly satrec: SatRec;
  private readonly epoch: number;
  private readonly sinMask: number;
  // Station position (ECF, km), its geodetic up/east/north unit vectors, its geocentric unit vector.
  private readonly sx: number;
  private readonly sy: number;
  private readonly sz: number;
  private readonly ux: number;
  private readonly uy: number;
  private readonly uz: number;
  private readonly ex: number;
  private readonly ey: number;
  private readonly nx: number;
  private readonly ny: number;
  private readonly nz: number;
  private readonly gx: number;
  private readonly gy: number;
  private readonly gz: number;
  readonly stationRadiusKm: number;

  /** sin(elevation) − sin(mask): positive while the satellite is above the mask. */
  f = 0;
  /** d sin(elevation)/dt (1/s): its sign is the sign of the elevation rate. */
  rate = 0;
  /** Central angle between station and satellite (rad). */
  psi = 0;
  /** Angular rate of the satellite about the Earth's centre, Earth-fixed frame (rad/s). */
  angularRate = 0;
  private rx = 0;
  private ry = 0;
  private rz = 0;
  private range = 0;

  constructor(satrec: SatRec, station: Station) {
    this.satrec = satrec;
    this.epoch = epochMs(satrec);
    this.sinMask = Math.sin(station.maskDeg * DEG);
    const lat = station.latDeg * DEG;
    const lon = station.lonDeg * DEG;
    const h = station.altM / 1000;
    const sinLat = Math.sin(lat);
    const cosLat = Math.cos(lat);
    const sinLon = Math.sin(lon);
    const cosLon = Math.cos(lon);
    const n = WGS84_A_KM / Math.sqrt(1 - WGS84_E2 * sinLat * sinLat);
    this.sx = (n + h) * cosLat * cosLon;
    this.sy = (n + h) * cosLat * sinLon;
    this.sz = (n * (1 - WGS84_E2) + h) * sinLat;
    this.ux = cosLat * cosLon;
    this.uy = cosLat * sinLon;
    this.uz = sinLat;
    this.ex = -sinLon;
    this.ey = cosLon;
    this.nx = -sinLat * cosLon;
    this.ny = -sinLat * sinLon;
    this.nz = cosLat;
    this.stationRadiusKm = Math.hypot(this.sx, this.sy, this.sz);
    this.gx = this.sx / this.stationRadiusKm;
    this.gy = this.sy / this.stationRadiusKm;
    this.gz = this.sz / this.stationRadiusKm;
  }

  /** Evaluates the geometry at `tMs` and returns `f`. */
  at(tMs: number): number {
    const { r, v } = propagateTeme(this.satrec, tMs, this.epoch);
    const gmst = gmstRad(tMs);
    const c = Math.cos(gmst);
    const s = Math.sin(gmst);
    // TEME → Earth-fixed: rotate by GMST; velocity also loses the frame rotation (ω × r).
    const x = c * r.x + s * r.y;
    const y = -s * r.x + c * r.y;
    const z = r.z;
    const vx = c * v.x + s * v.y + EARTH_ROTATION_RAD_S * y;
    const vy = -s * v.x + c * v.y - EARTH_ROTATION_RAD_S * x;
    const vz = v.z;
    const rx = x - this.sx;
    const ry = y - this.sy;
    const rz = z - this.sz;
    const range = Math.sqrt(rx * rx + ry * ry + rz * rz);
    const up = rx * this.ux + ry * this.uy + rz * this.uz;
    const vUp = vx * this.ux + vy * this.uy + vz * this.uz;
    const rDotV = rx * vx + ry * vy + rz * vz;
    this.rx = rx;
    this.ry = ry;
    this.rz = rz;
    this.range = range;
    this.f = up / range - this.sinMask;
    this.rate = vUp / range - (up * rDotV) / (range * range * range);
    const rNorm = Math.sqrt(x * x + y * y + z * z);
    const cosPsi = (x * this.gx + y * this.gy + z * this.gz) / rNorm;
    this.psi = Math.acos(Math.min(1, Math.max(-1, cosPsi)));
    // |r × v| / r² in the Earth-fixed frame: how fast the satellite moves across the station's sky.
    const hx = y * vz - z * vy;
    const hy = z * vx - x * vz;
    const hz = x * vy - y * vx;
    this.angularRate = Math.sqrt(hx * hx + hy * hy + hz * hz) / (rNorm * rNorm);
    return this.f;
  }

  elevationDeg(): number {
    const sinEl = (this.rx * this.ux + this.ry * this.uy + this.rz * this.uz) / this.range;
    return Math.asin(Math.min(1, Math.max(-1, sinEl))) * RAD;
  }

  azimuthDeg(): number {
    const east = this.rx * this.ex + this.ry * this.ey;
    const north = this.rx * this.nx + this.ry * this.ny + this.rz * this.nz;
    const az = Math.atan2(east, north) * RAD;
    return az < 0 ? az + 360 : az >= 360 ? az - 360 : az;
  }

  rangeKm(): number {
    return this.range;
  }
}

/** Elevation, azimuth and range of a satellite from a station (WGS-84, geometric, no refraction). */
export function lookAngles(satrec: SatRec, station: Station, tMs: number): LookAngles {
  checkPropagationSpan(satrec, tMs);
  const geo = new Geometry(satrec, station);
  geo.at(tMs);
  return { elevationDeg: geo.elevationDeg(), azimuthDeg: geo.azimuthDeg(), rangeKm: geo.rangeKm() };
}

type EventKind = 'rise' | 'set' | 'max';
interface PassEvent {
  t: number;
  kind: EventKind;
  /** f at a maximum. */
  f: number;
}

/**
 * Passes of `satrec` over `station` between `fromMs` and `toMs` (Unix ms, UTC).
 *
 * The sampler walks the window with a step of STEP_ANGLE_RAD of the satellite's current angular
 * motion, and jumps ahead over stretches where the central angle between satellite and station is
 * too large for the satellite to be above the mask (bounded by the fastest angular motion the orbit
 * allows). Between samples, a change of sign of the elevation against the mask is refined with
 * Brent's root finder; a change of sign of the analytic elevation rate brackets an extremum, refined
 * with Brent's minimiser. That finds maxima (TCA), grazing passes that start and end between two
 * samples, and short dips below the mask inside a long pass.
 *
 * Throws PropagationError if the window reaches beyond the regime's span from the epoch, or SGP4 fails
 * or gives an unphysical state anywhere in it.
 */
export function findPasses(satrec: SatRec, station: Station, fromMs: number, toMs: number): PassSearchResult {
  if (!(toMs >= fromMs)) throw new RangeError(`window end ${toMs} is before its start ${fromMs}`);
  checkPropagationSpan(satrec, fromMs, toMs);
  const geo = new Geometry(satrec, station);

  const n = meanMotionRevPerDay(satrec);
  const nRadS = (n * 2 * Math.PI) / 86_400;
  const a = Math.cbrt(SGP4_MU_KM3_S2 / (nRadS * nRadS));
  const e = satrec.ecco;
  // Highest the satellite gets (with margin for SGP4's periodic terms and slow changes of e).
  const rMax = a * (1 + e) * 1.01 + 50;
  // Fastest the central angle can change: perigee angular rate of the orbit plus the Earth's rotation.
  const rPerigee = a * Math.max(1 - e, 0.01);
  const psiRateMax =
    (SKIP_RATE_MARGIN * Math.sqrt(SGP4_MU_KM3_S2 * a * (1 - e * e))) / (rPerigee * rPerigee) +
    EARTH_ROTATION_RAD_S;
  // Largest central angle at which the satellite can be above the mask: triangle Earth centre –
  // station – satellite with the satellite at rMax and elevation mask − margin (the margin also covers
  // the ≤ 0.2° between the geodetic vertical and the geocentric direction of the station).
  const epsMin = station.maskDeg * DEG - SKIP_MASK_MARGIN_RAD;
  const ratio = Math.min(1, (geo.stationRadiusKm * Math.cos(epsMin)) / rMax);
  const psiMax = Math.acos(ratio) - epsMin;

  const maxStep = isGeosynchronous(n) ? MAX_STEP_GEOSYNC_MS : MAX_STEP_MS;
  const fAt = (t: number): number => geo.at(t);
  const rateAt = (t: number): number => {
    geo.at(t);
    return geo.rate;
  };
  const negF = (t: number): number => -geo.at(t);
  /** Maximum inside [t0, t1], bracketed by a + → − change of the elevation rate. */
  const maximum = (t0: number, t1: number): { t: number; f: number } => brentMax(fAt, t0, t1);
  /** Minimum inside [t0, t1], bracketed by a − → + change of the elevation rate. */
  const minimum = (t0: number, t1: number): { t: number; f: number } => {
    const m = brentMax(negF, t0, t1);
    return { t: m.t, f: -m.f };
  };

  const events: PassEvent[] = [];
  let ta = fromMs;
  let fa = geo.at(ta);
  let ra = geo.rate;
  let psiA = geo.psi;
  let omegaA = geo.angularRate;
  const f0 = fa;
  const el0 = geo.elevationDeg();
  while (ta < toMs) {
    const step = Math.min(maxStep, Math.max(MIN_STEP_MS, (STEP_ANGLE_RAD / omegaA) * 1000));
    const skip = psiA > psiMax ? ((psiA - psiMax) / psiRateMax) * 1000 : 0;
    // Over a skipped stretch the satellite provably stays below the mask: nothing to look for.
    const guaranteedBelow = skip >= step;
    const tb = Math.min(toMs, ta + (guaranteedBelow ? skip : step));
    const fb = geo.at(tb);
    const rb = geo.rate;
    // Kept before any refinement below moves the geometry to other instants.
    psiA = geo.psi;
    omegaA = geo.angularRate;
    if (!guaranteedBelow) {
      if (fa > 0 !== fb > 0) {
        const tc = brentRoot(fAt, ta, tb, fa, fb);
        if (fb > 0) {
          events.push({ t: tc, kind: 'rise', f: 0 });
          if (rb < 0) {
            const rc = rateAt(tc);
            if (rc > 0) events.push({ kind: 'max', ...maximum(tc, tb) });
          }
        } else {
          if (ra > 0) {
            const rc = rateAt(tc);
            if (rc < 0) events.push({ kind: 'max', ...maximum(ta, tc) });
          }
          events.push({ t: tc, kind: 'set', f: 0 });
        }
      } else if (ra > 0 && rb < 0) {
        // A maximum between the samples: the top of a pass, or a whole grazing pass.
        const m = maximum(ta, tb);
        if (m.f > 0) {
          if (fa <= 0) events.push({ t: brentRoot(fAt, ta, m.t, fa, m.f), kind: 'rise', f: 0 });
          events.push({ kind: 'max', ...m });
          if (fb <= 0) events.push({ t: brentRoot(fAt, m.t, tb, m.f, fb), kind: 'set', f: 0 });
        }
      } else if (fa > 0 && ra < 0 && rb > 0) {
        // A minimum between two samples above the mask: a short dip below it splits the pass.
        const m = minimum(ta, tb);
        if (m.f <= 0) {
          events.push({ t: brentRoot(fAt, ta, m.t, fa, m.f), kind: 'set', f: 0 });
          events.push({ t: brentRoot(fAt, m.t, tb, m.f, fb), kind: 'rise', f: 0 });
        }
      }
    }
    ta = tb;
    fa = fb;
    ra = rb;
  }
  const fEnd = fa;

  const hasCrossing = events.some((ev) => ev.kind !== 'max');
  if (!hasCrossing && isGeosynchronous(n)) {
    return { visibility: f0 > 0 ? 'always' : 'never', elevationDeg: el0 };
  }

  const passes: Pass[] = [];
  let aos: number | null = f0 > 0 ? fromMs : null;
  let best = { t: fromMs, f: f0 };
  for (const ev of events) {
    if (ev.kind === 'rise') {
      aos = ev.t;
      best = { t: ev.t, f: 0 };
    } else if (ev.kind === 'max') {
      if (aos !== null && ev.f > best.f) best = { t: ev.t, f: ev.f };
    } else if (aos !== null) {
      passes.push(makePass(geo, aos, best.t, ev.t, fromMs, toMs));
      aos = null;
    }
  }
  if (aos !== null) {
    if (fEnd > best.f) best = { t: toMs, f: fEnd };
    passes.push(makePass(geo, aos, best.t, toMs, fromMs, toMs));
  }
  return { visibility: 'passes', passes };
}

function makePass(geo: Geometry, aos: number, tca: number, los: number, fromMs: number, toMs: number): Pass {
  geo.at(aos);
  const aosAzimuthDeg = geo.azimuthDeg();
  geo.at(tca);
  const maxElevationDeg = geo.elevationDeg();
  const tcaAzimuthDeg = geo.azimuthDeg();
  geo.at(los);
  const losAzimuthDeg = geo.azimuthDeg();
  const aosMs = aos === fromMs ? fromMs : Math.round(aos);
  const losMs = los === toMs ? toMs : Math.round(los);
  return {
    aosMs,
    tcaMs: Math.round(tca),
    losMs,
    maxElevationDeg,
    aosAzimuthDeg,
    tcaAzimuthDeg,
    losAzimuthDeg,
    durationS: (losMs - aosMs) / 1000,
    inProgressAtStart: aos === fromMs,
    inProgressAtEnd: los === toMs,
  };
}

/**
 * Passes of every catalog satellite over one station. A satellite SGP4 cannot propagate over the
 * window (e.g. decayed) maps to its PropagationError instead of failing the whole catalog.
 */
export function findPassesForCatalog(
  catalog: Catalog,
  station: Station,
  fromMs: number,
  toMs: number,
): Map<number, PassSearchResult | PropagationError> {
  const out = new Map<number, PassSearchResult | PropagationError>();
  for (const [noradId, entry] of catalog) {
    try {
      out.set(noradId, findPasses(entry.satrec, station, fromMs, toMs));
    } catch (err) {
      if (!(err instanceof PropagationError)) throw err;
      out.set(noradId, err);
    }
  }
  return out;
}
