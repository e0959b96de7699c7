import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { IncomingRestRequest, RestHandler } from '@code-cluster/shared';
import {
  BookContactRequestSchema,
  CancelMaintenanceRequestSchema,
  type Contact,
  MAX_CONTACT_MS,
  MAX_SCHEDULE_HOURS,
  type MaintenanceList,
  MIN_CONTACT_MS,
  ProgramMaintenanceRequestSchema,
  type Schedule,
  type StationState,
  type StationSummary,
} from '@code-cluster/shared/groundstation';
import { z } from 'zod';
import { badRequest, HttpProblem, jsonResponse, notFound, unprocessable } from '../http/problem.js';
import { createRouter, parseQuery } from '../http/router.js';
import { STATIONS, type StationReference } from '../reference/stations.js';
import { dataDir } from '../storage/index.js';
import { type AntennaReference, equipmentOf } from './equipment.js';
import { healthAt } from './health.js';
import { maintenanceEnd, type Window, windowDto, windowInForce, windowOf } from './maintenance.js';
import {
  type ContactRow,
  type GroundstationStore,
  type MaintenanceRow,
  openGroundstationStore,
} from './store.js';
import { iso } from './time.js';
import { type SatdtConnection, SatelliteCheck } from './visibility.js';

export interface GroundstationSystemOptions {
  /** SQLite file of the contact book; `groundstation.db` under the cluster's data dir by default. */
  file?: string;
  /** The system's clock, Unix ms (tests pin it). */
  now?: () => number;
  /** The credential operator actions must present; without one, every operator action is refused. */
  operatorToken?: string;
  /**
   * The satdt system that judges whether a satellite can be contacted: the embedded one in this process by
   * default, a satdt service with `apiUrl` (the HTTP service reads GROUNDSTATION_SATDT_API_URL).
   */
  satdt?: SatdtConnection;
  onError?: (error: unknown) => void;
}

export interface GroundstationSystem {
  handler: RestHandler;
  store: GroundstationStore;
  close(): void;
}

const VERSION = '0.1.0';
const HOUR = 3_600_000;
/** Longest maintenance window an operator can program at once. */
export const MAX_MAINTENANCE_MS = 90 * 24 * HOUR;
const isoTime = z.iso.datetime({ offset: false });

export function defaultDatabaseFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'groundstation.db');
}

/** The ground station's REST API (see packages/shared/src/groundstation/schemas.ts for the resources). */
export function createGroundstationSystem(options: GroundstationSystemOptions = {}): GroundstationSystem {
  const store = openGroundstationStore(options.file ?? defaultDatabaseFile());
  const now = options.now ?? Date.now;
  const operatorDigest = options.operatorToken ? digest(options.operatorToken) : undefined;
  const satellites = new SatelliteCheck(options.satdt ?? {}, now);

  const station = (id: string): StationReference => {
    const found = STATIONS.find((s) => s.id === id);
    if (!found) {
      throw notFound(
        `No existe la estación '${id}'. Estaciones disponibles: ${STATIONS.map((s) => s.id).join(', ')}.`,
        { station: id },
      );
    }
    return found;
  };
  /** Maintenance windows of a station, not cancelled, that end after `afterMs`. */
  const windowsOf = (s: StationReference, afterMs: number): Window[] =>
    store.maintenanceEndingAfter(s.id, afterMs).map(windowOf);
  const summary = (s: StationReference, nowMs: number): StationSummary => {
    const current = windowInForce(windowsOf(s, nowMs), nowMs);
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
  };
  const contactDto = (row: ContactRow, nowMs: number): Contact => {
    const antenna = equipmentOf(station(row.station)).antennas.find((a) => a.id === row.antenna);
    return {
      id: row.id,
      station: row.station,
      antenna: row.antenna,
      band: antenna?.band ?? 'S',
      norad_id: row.norad_id,
      start: iso(row.start_ms),
      end: iso(row.end_ms),
      status:
        row.status === 'cancelado'
          ? 'cancelado'
          : nowMs < row.start_ms
            ? 'programado'
            : nowMs < row.end_ms
              ? 'en_curso'
              : 'completado',
      created_at: iso(row.created_ms),
      ...(row.cancelled_ms === null ? {} : { cancelled_at: iso(row.cancelled_ms) }),
    };
  };

  const book = async (request: IncomingRestRequest) => {
    const body = parseBody(request, BookContactRequestSchema);
    const where = station(body.station);
    const nowMs = now();
    const startMs = Date.parse(body.start);
    const endMs = Date.parse(body.end);
    if (endMs <= startMs) {
      throw unprocessable(
        `El fin del contacto (${iso(endMs)}) debe ser posterior a su inicio (${iso(startMs)}).`,
      );
    }
    if (startMs <= nowMs) {
      throw unprocessable(
        `El contacto empieza en el pasado (inicio ${iso(startMs)}; ahora son las ${iso(nowMs)}): ` +
          'elige un inicio futuro.',
      );
    }
    if (endMs - startMs > MAX_CONTACT_MS) {
      throw unprocessable(
        `El contacto dura ${minutes(endMs - startMs)} min y el máximo es ${MAX_CONTACT_MS / 60_000} min ` +
          '(4 h): divídelo en varios contactos.',
      );
    }
    if (endMs - startMs < MIN_CONTACT_MS) {
      throw unprocessable(
        `El contacto dura ${Math.round((endMs - startMs) / 1000)} s y el mínimo es 1 min: amplía la ventana.`,
      );
    }
    const equipment = equipmentOf(where);
    let candidates: readonly AntennaReference[] = equipment.antennas;
    if (body.antenna !== undefined) {
      const chosen = equipment.antennas.find((a) => a.id === body.antenna);
      if (!chosen) {
        throw unprocessable(
          `La antena '${body.antenna}' no pertenece a ${where.id}. Antenas de ${where.id}: ` +
            `${equipment.antennas.map((a) => `${a.id} (banda ${a.band})`).join(', ')}.`,
          { antenna: body.antenna },
        );
      }
      candidates = [chosen];
    }
    // Orbits do not depend on the book, so the satellite is judged before the transaction; its verdict is
    // given after the maintenance one, which tells a model more about the station.
    const satelliteRefusal = await satellites.refusal(where, body.norad_id, startMs, endMs);

    // Check and insert in one write transaction: two servers booking at once cannot both win a slot.
    const row = store.transaction(() => {
      const windows = windowsOf(where, startMs);
      const blocking = windows.find((w) => w.startMs < endMs);
      if (blocking) {
        const free = STATIONS.filter(
          (s) => s.id !== where.id && !windowsOf(s, startMs).some((w) => w.startMs < endMs),
        );
        throw inMaintenance(where, blocking, maintenanceEnd(windows, blocking), free);
      }
      if (satelliteRefusal) throw satelliteRefusal;
      // One satellite, one antenna: a second dish on the same satellite at once would only duplicate it.
      const same = store.activeContacts(where.id, startMs, endMs).filter((c) => c.norad_id === body.norad_id);
      if (same.length > 0) {
        throw new HttpProblem(
          409,
          'Conflict',
          `NORAD ${body.norad_id} ya tiene un contacto en ${where.id} que se solapa con esa ventana: ` +
            `${same.map(describeContact).join('; ')}. Una estación atiende un satélite con una sola antena a ` +
            'la vez: usa ese contacto o cancélalo antes.',
          { conflicts: same.map(conflictOf) },
        );
      }
      const conflicts: ContactRow[] = [];
      for (const antenna of candidates) {
        const busy = store.activeContacts(where.id, startMs, endMs, antenna.id);
        if (busy.length === 0) {
          const row: ContactRow = {
            id: newId('ct'),
            station: where.id,
            antenna: antenna.id,
            norad_id: body.norad_id,
            start_ms: startMs,
            end_ms: endMs,
            status: 'programado',
            created_ms: nowMs,
            cancelled_ms: null,
          };
          store.insertContact(row);
          return row;
        }
        conflicts.push(busy[0]!);
      }
      throw overlapping(where, conflicts, body.antenna !== undefined);
    });
    return jsonResponse(201, contactDto(row, nowMs));
  };

  const cancel = (id: string) => {
    const nowMs = now();
    const row = store.transaction(() => {
      const found = store.getContact(id);
      if (!found) {
        throw notFound(
          `No existe el contacto '${id}'. agenda_estacion lista los contactos de cada estación.`,
          {
            contact_id: id,
          },
        );
      }
      if (found.status === 'cancelado') {
        throw new HttpProblem(
          409,
          'Conflict',
          `El contacto ${id} ya estaba cancelado (desde ${iso(found.cancelled_ms ?? found.created_ms)}); ` +
            'no hay nada más que hacer.',
          { contact_id: id },
        );
      }
      if (found.start_ms <= nowMs) {
        const what = found.end_ms <= nowMs ? 'ya terminó' : 'ya está en curso';
        throw new HttpProblem(
          409,
          'Conflict',
          `El contacto ${id} ${what} (${iso(found.start_ms)} a ${iso(found.end_ms)}, antena ${found.antenna}): ` +
            'solo se pueden cancelar contactos que aún no han empezado.',
          { contact_id: id },
        );
      }
      store.cancelContact(id, nowMs);
      return store.getContact(id)!;
    });
    return contactDto(row, nowMs);
  };

  /** The credential is checked before anything else is parsed or revealed. */
  const requireOperator = (request: IncomingRestRequest, action: string) => {
    const raw = parseJson(request.body);
    const token =
      typeof raw === 'object' && raw !== null
        ? (raw as { operator_token?: unknown }).operator_token
        : undefined;
    if (!operatorDigest || typeof token !== 'string' || !timingSafeEqual(digest(token), operatorDigest)) {
      throw new HttpProblem(
        403,
        'Forbidden',
        `${action} es una acción de operador y esta petición no trae una credencial de operador válida.`,
      );
    }
  };

  const programMaintenance = (id: string, request: IncomingRestRequest) => {
    requireOperator(request, 'Programar mantenimiento');
    const body = parseBody(request, ProgramMaintenanceRequestSchema);
    const where = station(id);
    const nowMs = now();
    const startMs = Date.parse(body.start);
    const endMs = Date.parse(body.end);
    if (endMs <= startMs) {
      throw unprocessable(
        `El fin del mantenimiento (${iso(endMs)}) debe ser posterior a su inicio (${iso(startMs)}).`,
      );
    }
    if (endMs <= nowMs) {
      throw unprocessable(
        `El mantenimiento terminaría en el pasado (fin ${iso(endMs)}; ahora son las ${iso(nowMs)}).`,
      );
    }
    if (endMs - startMs > MAX_MAINTENANCE_MS) {
      throw unprocessable('Una ventana de mantenimiento dura como mucho 90 días: prográmala por tramos.');
    }
    const row = store.transaction(() => {
      // Windows add up, overlapping or not; only the same window twice (a retried call) is refused.
      const same = store
        .maintenanceEndingAfter(where.id, startMs)
        .find((w) => w.start_ms === startMs && w.end_ms === endMs && w.reason === body.reason);
      if (same) {
        throw new HttpProblem(
          409,
          'Conflict',
          `Esa ventana ya está programada en ${where.id}: ${same.id} de ${iso(same.start_ms)} a ` +
            `${iso(same.end_ms)} (${same.reason}). No se ha creado otra.`,
          { maintenance_id: same.id },
        );
      }
      const booked = store.activeContacts(where.id, Math.max(startMs, nowMs), endMs);
      if (booked.length > 0) {
        throw new HttpProblem(
          409,
          'Conflict',
          `Hay ${booked.length} ${booked.length === 1 ? 'contacto agendado' : 'contactos agendados'} en ` +
            `${where.id} durante esa ventana: ${booked.map(describeContact).join('; ')}. ` +
            'Cancélalos antes o elige otra ventana.',
          { conflicts: booked.map(conflictOf) },
        );
      }
      const row: MaintenanceRow = {
        id: newId('mt'),
        station: where.id,
        start_ms: startMs,
        end_ms: endMs,
        reason: body.reason,
        source: 'operador',
        created_ms: nowMs,
        cancelled_ms: null,
      };
      store.insertMaintenance(row);
      return row;
    });
    return jsonResponse(201, windowDto(windowOf(row)));
  };

  const cancelMaintenance = (id: string, request: IncomingRestRequest) => {
    requireOperator(request, 'Cancelar mantenimiento');
    parseBody(request, CancelMaintenanceRequestSchema);
    const nowMs = now();
    const row = store.transaction(() => {
      const found = store.getMaintenance(id);
      if (!found) {
        throw notFound(
          `No existe el mantenimiento '${id}'. listar_mantenimientos muestra las ventanas de cada estación.`,
          { maintenance_id: id },
        );
      }
      if (found.cancelled_ms !== null) {
        throw new HttpProblem(
          409,
          'Conflict',
          `El mantenimiento ${id} ya estaba cancelado (desde ${iso(found.cancelled_ms)}); no hay nada más que hacer.`,
          { maintenance_id: id },
        );
      }
      if (found.end_ms <= nowMs) {
        throw new HttpProblem(
          409,
          'Conflict',
          `El mantenimiento ${id} ya terminó (${iso(found.start_ms)} a ${iso(found.end_ms)}): solo se ` +
            'cancelan ventanas en curso o futuras.',
          { maintenance_id: id },
        );
      }
      store.cancelMaintenance(id, nowMs);
      return store.getMaintenance(id)!;
    });
    return windowDto(windowOf(row));
  };

  const handler = createRouter(
    [
      {
        method: 'GET',
        pattern: '/healthz',
        handle: () => ({ status: 'ok', system: 'groundstation', version: VERSION }),
      },
      {
        method: 'GET',
        pattern: '/v1/stations',
        handle: () => {
          const nowMs = now();
          return { stations: STATIONS.map((s) => summary(s, nowMs)) };
        },
      },
      {
        method: 'GET',
        pattern: '/v1/stations/:id',
        handle: ({ params }) => {
          const where = station(params.id!);
          const nowMs = now();
          const base = summary(where, nowMs);
          const next = store.activeContacts(where.id, nowMs, Number.MAX_SAFE_INTEGER)[0];
          const state: StationState = {
            ...base,
            health: healthAt(where, equipmentOf(where), nowMs, base.status === 'mantenimiento'),
            upcoming_maintenance: windowsOf(where, nowMs).map(windowDto),
            ...(next ? { next_contact: contactDto(next, nowMs) } : {}),
          };
          return state;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/stations/:id/schedule',
        handle: ({ params, request }) => {
          const where = station(params.id!);
          const query = parseQuery(
            request.query,
            z.object({
              from: isoTime.optional(),
              hours: z.coerce.number().int().min(1).max(MAX_SCHEDULE_HOURS).default(24),
            }),
          );
          const nowMs = now();
          const fromMs = query.from === undefined ? nowMs : Date.parse(query.from);
          const toMs = fromMs + query.hours * HOUR;
          const schedule: Schedule = {
            station: where.id,
            from: iso(fromMs),
            to: iso(toMs),
            contacts: store.activeContacts(where.id, fromMs, toMs).map((row) => contactDto(row, nowMs)),
            maintenance: windowsOf(where, fromMs)
              .filter((w) => w.startMs < toMs)
              .map(windowDto),
          };
          return schedule;
        },
      },
      {
        method: 'GET',
        pattern: '/v1/stations/:id/maintenance',
        handle: ({ params }) => {
          const where = station(params.id!);
          const list: MaintenanceList = {
            station: where.id,
            maintenance: windowsOf(where, now()).map(windowDto),
          };
          return list;
        },
      },
      {
        method: 'POST',
        pattern: '/v1/stations/:id/maintenance',
        handle: ({ params, request }) => programMaintenance(params.id!, request),
      },
      {
        method: 'POST',
        pattern: '/v1/maintenance/:id/cancel',
        handle: ({ params, request }) => cancelMaintenance(params.id!, request),
      },
      { method: 'POST', pattern: '/v1/contacts', handle: ({ request }) => book(request) },
      {
        method: 'GET',
        pattern: '/v1/contacts/:id',
        handle: ({ params }) => {
          const row = store.getContact(params.id!);
          if (!row) throw notFound(`No existe el contacto '${params.id}'.`, { contact_id: params.id });
          return contactDto(row, now());
        },
      },
      { method: 'DELETE', pattern: '/v1/contacts/:id', handle: ({ params }) => cancel(params.id!) },
    ],
    options.onError,
  );

  return {
    handler,
    store,
    close: () => {
      void satellites.close();
      store.close();
    },
  };
}

function inMaintenance(
  where: StationReference,
  window: Window,
  freeFromMs: number,
  free: readonly StationReference[],
): HttpProblem {
  const elsewhere = free.length > 0 ? `otra estación (${free.map((s) => s.id).join(', ')}) o ` : '';
  return new HttpProblem(
    409,
    'Conflict',
    `La estación ${where.id} está en mantenimiento del ${iso(window.startMs)} al ${iso(window.endMs)} ` +
      `(${window.reason}, ${window.id}) y no admite contactos en ese intervalo. Elige ${elsewhere}` +
      `un inicio a partir del ${iso(freeFromMs)}.`,
    { maintenance: windowDto(window) },
  );
}

function overlapping(
  where: StationReference,
  conflicts: ContactRow[],
  antennaRequested: boolean,
): HttpProblem {
  const list = conflicts.map(describeContact).join('; ');
  const detail = antennaRequested
    ? `La antena ${conflicts[0]!.antenna} de ${where.id} ya está reservada en ese intervalo: ${list}. ` +
      'Elige otro intervalo, otra antena o deja que el sistema elija una libre.'
    : `Todas las antenas de ${where.id} están reservadas en ese intervalo: ${list}. ` +
      'Elige otro intervalo u otra estación.';
  return new HttpProblem(409, 'Conflict', detail, { conflicts: conflicts.map(conflictOf) });
}

function describeContact(row: ContactRow): string {
  return `contacto ${row.id} en la antena ${row.antenna} (NORAD ${row.norad_id}) de ${iso(row.start_ms)} a ${iso(row.end_ms)}`;
}

function conflictOf(row: ContactRow) {
  return { contact_id: row.id, antenna: row.antenna, start: iso(row.start_ms), end: iso(row.end_ms) };
}

function parseBody<T extends z.ZodType>(request: IncomingRestRequest, schema: T): z.output<T> {
  const raw = parseJson(request.body);
  if (raw === undefined) throw badRequest('El cuerpo de la petición debe ser un objeto JSON.');
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.join('.') || 'cuerpo';
  // The operator credential is never echoed back, even when it is malformed.
  const value =
    name === 'operator_token' || !('input' in issue) ? '' : `; recibido: ${JSON.stringify(issue.input)}`;
  throw badRequest(`Campo '${name}' inválido (${issue.message})${value}`, { field: name });
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Equal-length digests, so comparing a token reveals neither its content nor its length. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function newId(prefix: 'ct' | 'mt'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

function minutes(ms: number): number {
  return Math.round(ms / 60_000);
}
