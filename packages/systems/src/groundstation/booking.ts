import {
  type BookContactRequest,
  type Contact,
  MAX_CONTACT_MS,
  MIN_CONTACT_MS,
} from '@code-cluster/shared/groundstation';
import { STATIONS, type StationReference, stationOr404 } from '../reference/stations.js';
import { type Refusal, refuse } from '../refusal.js';
import { isoUtc } from '../time.js';
import { conflictOf, contactDto, describeContact, newId } from './contacts.js';
import { type AntennaReference, equipmentOf } from './equipment.js';
import { maintenanceEnd, type Window, windowDto, windowsOf } from './maintenance.js';
import type { ContactRow, GroundstationQueries, GroundstationStore } from './store.js';
import type { SatelliteCheck } from './visibility.js';

/** Contacts booked, looked up and cancelled: the contact book's use cases. */
export class Booking {
  constructor(
    private readonly store: GroundstationStore,
    private readonly satellites: SatelliteCheck,
    private readonly now: () => number,
  ) {}

  async book(request: BookContactRequest): Promise<Contact> {
    const where = stationOr404(request.station);
    const nowMs = this.now();
    const startMs = Date.parse(request.start);
    const endMs = Date.parse(request.end);
    checkWindow(startMs, endMs, nowMs);
    const candidates = antennasFor(where, request.antenna);
    // Orbits do not depend on the book, so the satellite is judged before the transaction; its verdict is
    // given after the maintenance one, which tells a model more about the station.
    const satelliteRefusal = await this.satellites.refusal(where, request.norad_id, startMs, endMs);

    // Check and insert in one write transaction, taking turns with every other writer of the station (the
    // maintenance it checks is another table): two replicas booking at once cannot both win a slot.
    const row = await this.store.transaction(async (tx) => {
      await this.checkMaintenance(tx, where, startMs, endMs);
      if (satelliteRefusal) throw satelliteRefusal;
      await checkSatelliteFree(tx, where, request.norad_id, startMs, endMs);
      const conflicts: ContactRow[] = [];
      for (const antenna of candidates) {
        for (;;) {
          const busy = await tx.activeContacts(where.id, startMs, endMs, antenna.id);
          if (busy.length > 0) {
            conflicts.push(busy[0]!);
            break;
          }
          const row: ContactRow = {
            id: newId('ct'),
            station: where.id,
            antenna: antenna.id,
            norad_id: request.norad_id,
            start_ms: startMs,
            end_ms: endMs,
            status: 'programado',
            created_ms: nowMs,
            cancelled_ms: null,
          };
          if (await tx.insertContact(row)) return row;
          // The database refused it: a writer that did not take turns got there first. Read again who
          // holds the slot (the satellite's or the antenna's), and answer as the checks would have.
          await checkSatelliteFree(tx, where, request.norad_id, startMs, endMs);
        }
      }
      throw overlapping(where, conflicts, request.antenna !== undefined);
    }, where.id);
    return contactDto(row, nowMs);
  }

  async get(id: string): Promise<Contact> {
    const row = await this.store.getContact(id);
    if (!row) throw refuse.notFound(`No existe el contacto '${id}'.`, { contact_id: id });
    return contactDto(row, this.now());
  }

  async cancel(id: string): Promise<Contact> {
    const nowMs = this.now();
    const row = await this.store.transaction(async (tx) => {
      const found = await tx.getContact(id);
      if (!found) {
        throw refuse.notFound(
          `No existe el contacto '${id}'. agenda_estacion lista los contactos de cada estación.`,
          { contact_id: id },
        );
      }
      if (found.status === 'cancelado') {
        throw refuse.conflict(
          `El contacto ${id} ya estaba cancelado (desde ${isoUtc(found.cancelled_ms ?? found.created_ms)}); ` +
            'no hay nada más que hacer.',
          { contact_id: id },
        );
      }
      if (found.start_ms <= nowMs) {
        const what = found.end_ms <= nowMs ? 'ya terminó' : 'ya está en curso';
        throw refuse.conflict(
          `El contacto ${id} ${what} (${isoUtc(found.start_ms)} a ${isoUtc(found.end_ms)}, antena ` +
            `${found.antenna}): solo se pueden cancelar contactos que aún no han empezado.`,
          { contact_id: id },
        );
      }
      await tx.cancelContact(id, nowMs);
      return (await tx.getContact(id))!;
    });
    return contactDto(row, nowMs);
  }

  /** A station in maintenance at any time of the window takes no contact: a 409 naming when it can. */
  private async checkMaintenance(
    tx: GroundstationQueries,
    where: StationReference,
    startMs: number,
    endMs: number,
  ): Promise<void> {
    const windows = await windowsOf(tx, where, startMs);
    const blocking = windows.find((w) => w.startMs < endMs);
    if (!blocking) return;
    const free: StationReference[] = [];
    for (const s of STATIONS) {
      if (s.id !== where.id && !(await windowsOf(tx, s, startMs)).some((w) => w.startMs < endMs))
        free.push(s);
    }
    throw inMaintenance(where, blocking, maintenanceEnd(windows, blocking), free);
  }
}

/** One satellite, one antenna: a second dish on the same satellite at once would only duplicate it. */
async function checkSatelliteFree(
  tx: GroundstationQueries,
  where: StationReference,
  noradId: number,
  startMs: number,
  endMs: number,
): Promise<void> {
  const same = (await tx.activeContacts(where.id, startMs, endMs)).filter((c) => c.norad_id === noradId);
  if (same.length === 0) return;
  throw refuse.conflict(
    `NORAD ${noradId} ya tiene un contacto en ${where.id} que se solapa con esa ventana: ` +
      `${same.map(describeContact).join('; ')}. Una estación atiende un satélite con una sola antena a ` +
      'la vez: usa ese contacto o cancélalo antes.',
    { conflicts: same.map(conflictOf) },
  );
}

function checkWindow(startMs: number, endMs: number, nowMs: number): void {
  if (endMs <= startMs) {
    throw refuse.unprocessable(
      `El fin del contacto (${isoUtc(endMs)}) debe ser posterior a su inicio (${isoUtc(startMs)}).`,
    );
  }
  if (startMs <= nowMs) {
    throw refuse.unprocessable(
      `El contacto empieza en el pasado (inicio ${isoUtc(startMs)}; ahora son las ${isoUtc(nowMs)}): ` +
        'elige un inicio futuro.',
    );
  }
  if (endMs - startMs > MAX_CONTACT_MS) {
    throw refuse.unprocessable(
      `El contacto dura ${Math.round((endMs - startMs) / 60_000)} min y el máximo es ` +
        `${MAX_CONTACT_MS / 60_000} min (4 h): divídelo en varios contactos.`,
    );
  }
  if (endMs - startMs < MIN_CONTACT_MS) {
    throw refuse.unprocessable(
      `El contacto dura ${Math.round((endMs - startMs) / 1000)} s y el mínimo es 1 min: amplía la ventana.`,
    );
  }
}

/** The antennas a booking may take: the one asked for, or any of the station's. */
function antennasFor(where: StationReference, antenna: string | undefined): readonly AntennaReference[] {
  const equipment = equipmentOf(where);
  if (antenna === undefined) return equipment.antennas;
  const chosen = equipment.antennas.find((a) => a.id === antenna);
  if (!chosen) {
    throw refuse.unprocessable(
      `La antena '${antenna}' no pertenece a ${where.id}. Antenas de ${where.id}: ` +
        `${equipment.antennas.map((a) => `${a.id} (banda ${a.band})`).join(', ')}.`,
      { antenna },
    );
  }
  return [chosen];
}

function inMaintenance(
  where: StationReference,
  window: Window,
  freeFromMs: number,
  free: readonly StationReference[],
): Refusal {
  const elsewhere = free.length > 0 ? `otra estación (${free.map((s) => s.id).join(', ')}) o ` : '';
  return refuse.conflict(
    `La estación ${where.id} está en mantenimiento del ${isoUtc(window.startMs)} al ${isoUtc(window.endMs)} ` +
      `(${window.reason}, ${window.id}) y no admite contactos en ese intervalo. Elige ${elsewhere}` +
      `un inicio a partir del ${isoUtc(freeFromMs)}.`,
    { maintenance: windowDto(window) },
  );
}

function overlapping(where: StationReference, conflicts: ContactRow[], antennaRequested: boolean): Refusal {
  const list = conflicts.map(describeContact).join('; ');
  const detail = antennaRequested
    ? `La antena ${conflicts[0]!.antenna} de ${where.id} ya está reservada en ese intervalo: ${list}. ` +
      'Elige otro intervalo, otra antena o deja que el sistema elija una libre.'
    : `Todas las antenas de ${where.id} están reservadas en ese intervalo: ${list}. ` +
      'Elige otro intervalo u otra estación.';
  return refuse.conflict(detail, { conflicts: conflicts.map(conflictOf) });
}
