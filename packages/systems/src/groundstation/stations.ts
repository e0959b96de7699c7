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
import { type Window, windowDto, windowInForce, windowsOf } from './maintenance.js';
import type { GroundstationStore } from './store.js';

const HOUR = 3_600_000;

/** What the stations look like now: their status, health, agenda and maintenance. */
export class StationViews {
  constructor(
    private readonly store: GroundstationStore,
    private readonly now: () => number,
  ) {}

  async list(): Promise<StationSummary[]> {
    const nowMs = this.now();
    return Promise.all(
      STATIONS.map(async (s) => this.summary(s, nowMs, await windowsOf(this.store, s, nowMs))),
    );
  }

  async state(id: string): Promise<StationState> {
    const where = stationOr404(id);
    const nowMs = this.now();
    const windows = await windowsOf(this.store, where, nowMs);
    const base = this.summary(where, nowMs, windows);
    const next = (await this.store.activeContacts(where.id, nowMs, Number.MAX_SAFE_INTEGER))[0];
    return {
      ...base,
      health: healthAt(where, equipmentOf(where), nowMs, base.status === 'mantenimiento'),
      upcoming_maintenance: windows.map(windowDto),
      ...(next ? { next_contact: contactDto(next, nowMs) } : {}),
    };
  }

  /** Contacts and maintenance of a station in [from, from + hours); from the system's now by default. */
  async schedule(id: string, from: string | undefined, hours: number): Promise<Schedule> {
    const where = stationOr404(id);
    const nowMs = this.now();
    const fromMs = from === undefined ? nowMs : Date.parse(from);
    const toMs = fromMs + hours * HOUR;
    return {
      station: where.id,
      from: isoUtc(fromMs),
      to: isoUtc(toMs),
      contacts: (await this.store.activeContacts(where.id, fromMs, toMs)).map((row) =>
        contactDto(row, nowMs),
      ),
      maintenance: (await windowsOf(this.store, where, fromMs))
        .filter((w) => w.startMs < toMs)
        .map(windowDto),
    };
  }

  async maintenance(id: string): Promise<MaintenanceList> {
    const where = stationOr404(id);
    const windows = await windowsOf(this.store, where, this.now());
    return { station: where.id, maintenance: windows.map(windowDto) };
  }

  private summary(s: StationReference, nowMs: number, windows: readonly Window[]): StationSummary {
    const current = windowInForce(windows, nowMs);
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
