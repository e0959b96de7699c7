import type {
  MaintenanceList,
  Schedule,
  StationState,
  StationSummary,
} from '@code-cluster/shared/groundstation';
import { STATIONS, type StationReference, stationOr404 } from '../reference/stations.js';
import { isoUtc } from '../time.js';
import { contactDto } from './contacts.js';
import { equipmentOf } from './equipment.js';
import { healthAt } from './health.js';
import { windowDto, windowInForce, windowsOf } from './maintenance.js';
import type { GroundstationStore } from './store.js';

const HOUR = 3_600_000;

/** What the stations look like now: their status, health, agenda and maintenance. */
export class StationViews {
  constructor(
    private readonly store: GroundstationStore,
    private readonly now: () => number,
  ) {}

  list(): StationSummary[] {
    const nowMs = this.now();
    return STATIONS.map((s) => this.summary(s, nowMs));
  }

  state(id: string): StationState {
    const where = stationOr404(id);
    const nowMs = this.now();
    const base = this.summary(where, nowMs);
    const next = this.store.activeContacts(where.id, nowMs, Number.MAX_SAFE_INTEGER)[0];
    return {
      ...base,
      health: healthAt(where, equipmentOf(where), nowMs, base.status === 'mantenimiento'),
      upcoming_maintenance: windowsOf(this.store, where, nowMs).map(windowDto),
      ...(next ? { next_contact: contactDto(next, nowMs) } : {}),
    };
  }

  /** Contacts and maintenance of a station in [from, from + hours); from the system's now by default. */
  schedule(id: string, from: string | undefined, hours: number): Schedule {
    const where = stationOr404(id);
    const nowMs = this.now();
    const fromMs = from === undefined ? nowMs : Date.parse(from);
    const toMs = fromMs + hours * HOUR;
    return {
      station: where.id,
      from: isoUtc(fromMs),
      to: isoUtc(toMs),
      contacts: this.store.activeContacts(where.id, fromMs, toMs).map((row) => contactDto(row, nowMs)),
      maintenance: windowsOf(this.store, where, fromMs)
        .filter((w) => w.startMs < toMs)
        .map(windowDto),
    };
  }

  maintenance(id: string): MaintenanceList {
    const where = stationOr404(id);
    return { station: where.id, maintenance: windowsOf(this.store, where, this.now()).map(windowDto) };
  }

  private summary(s: StationReference, nowMs: number): StationSummary {
    const current = windowInForce(windowsOf(this.store, s, nowMs), nowMs);
    return {
      id: s.id,
      name: s.name,
      city: s.city,
      latitude_deg: s.latitudeDeg,
      longitude_deg: s.longitudeDeg,
      altitude_m: s.altitudeM,
      elevation_mask_deg: s.elevationMaskDeg,
      status: current ? 'mantenimiento' : 'operativa',
      antennas: equipmentOf(s).antennas.map((a) => ({
        id: a.id,
        band: a.band,
        diameter_m: a.diameterM,
        downlink_mhz: a.downlinkMhz,
      })),
      ...(current ? { maintenance: windowDto(current) } : {}),
    };
  }
}
