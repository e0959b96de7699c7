import { inProcessTransport, SystemError } from '@code-cluster/shared';
import { type Pass, SatdtClient } from '@code-cluster/shared/satdt';
import { HttpProblem } from '../http/problem.js';
import { STATIONS, type StationReference } from '../reference/stations.js';
import { type Refusal, refuse } from '../refusal.js';
import { isoUtc } from '../time.js';

/** Where the ground station asks about satellites: the satdt system, in process or remote. */
export interface SatdtConnection {
  /** Base URL of a satdt service; unset = the embedded satdt system, in this process. */
  apiUrl?: string | undefined;
  apiToken?: string | undefined;
}

const HOUR = 3_600_000;
/** How far past a refused window the refusal looks for passes to propose. */
const NEXT_PASSES_HOURS = 48;
const NEXT_PASSES_SHOWN = 3;

/**
 * Judges whether a contact is possible with the satellite twin satdt serves, through satdt's own REST API:
 * by default the embedded satdt system in this process (the same catalog and SGP4 code the satdt server
 * ships, so a fresh install agrees with itself); with `apiUrl`, the satdt service of a deployment, so that
 * the passes a user got from proximos_pases are exactly the ones the ground station accepts, whatever
 * element sets that service holds.
 */
export class SatelliteCheck {
  private client: SatdtClient | undefined;

  constructor(
    private readonly connection: SatdtConnection,
    private readonly now: () => number,
  ) {}

  /** The refusal for a contact with `noradId` over `where` in [startMs, endMs), or undefined if it is possible. */
  async refusal(
    where: StationReference,
    noradId: number,
    startMs: number,
    endMs: number,
  ): Promise<Refusal | undefined> {
    const satdt = await this.satdt();
    const satellite = await ask(() => satdt.getSatellite(noradId));
    if (satellite.status !== 'operativo') {
      return refuse.unprocessable(
        `${satellite.name} (NORAD ${noradId}) está ${satellite.status}: ya no opera y las estaciones no ` +
          'agendan contactos con él. Elige un satélite operativo (el recurso satdt://catalogo los lista).',
        { norad_id: noradId },
      );
    }
    const name = `${satellite.name} (NORAD ${noradId})`;
    const during = (station: StationReference) => this.visibleDuring(satdt, station, noradId, startMs, endMs);
    if (await during(where)) return undefined;

    const next = await ask(() =>
      satdt.passes(noradId, { station: where.id, from: isoUtc(endMs), hours: NEXT_PASSES_HOURS }),
    );
    const upcoming = next.passes.slice(0, NEXT_PASSES_SHOWN);
    const elsewhere: string[] = [];
    for (const other of STATIONS.filter((s) => s.id !== where.id)) {
      if (await during(other)) elsewhere.push(other.id);
    }
    const proposal =
      next.visibility === 'never'
        ? `${name} es geosíncrono y nunca sube sobre la máscara de ${where.id}.`
        : upcoming.length === 0
          ? `Tampoco pasa sobre ${where.id} en las ${NEXT_PASSES_HOURS} h siguientes.`
          : `Próximos pases sobre ${where.id}: ${upcoming.map(describePass).join('; ')}. Agenda uno de ` +
            'ellos con su AOS y LOS (proximos_pases los da).';
    const otherStations =
      elsewhere.length > 0 ? ` En esa ventana sí es visible desde ${elsewhere.join(', ')}.` : '';
    return refuse.conflict(
      `${name} no está sobre la máscara de elevación de ${where.id} (${where.elevationMaskDeg}°) entre ` +
        `${isoUtc(startMs)} y ${isoUtc(endMs)}: la estación no puede contactar con él en esa ventana. ${proposal}` +
        otherStations,
      {
        norad_id: noradId,
        next_passes: upcoming.map((p) => ({
          aos: p.aos,
          los: p.los,
          max_elevation_deg: p.max_elevation_deg,
        })),
        visible_from: elsewhere,
      },
    );
  }

  private async visibleDuring(
    satdt: SatdtClient,
    station: StationReference,
    noradId: number,
    startMs: number,
    endMs: number,
  ): Promise<boolean> {
    const hours = Math.max(1, Math.ceil((endMs - startMs) / HOUR));
    const found = await ask(() =>
      satdt.passes(noradId, { station: station.id, from: isoUtc(startMs), hours }),
    );
    if (found.visibility !== 'passes') return found.visibility === 'always';
    // Part of a pass is a contact too: the station works the satellite while it is above the mask.
    return found.passes.some((p) => Date.parse(p.aos) < endMs && Date.parse(p.los) > startMs);
  }

  private async satdt(): Promise<SatdtClient> {
    if (!this.client) {
      if (this.connection.apiUrl) {
        const { httpTransport } = await import('@code-cluster/shared/http');
        this.client = new SatdtClient(
          httpTransport({ baseUrl: this.connection.apiUrl, token: this.connection.apiToken }),
        );
      } else {
        const { createSatdtSystem } = await import('../satdt/index.js');
        const system = createSatdtSystem({ now: this.now });
        this.client = new SatdtClient(inProcessTransport(() => system.handler));
      }
    }
    return this.client;
  }

  close(): Promise<void> {
    return this.client?.close() ?? Promise.resolve();
  }
}

/** satdt's refusals (unknown satellite, elements unusable at that time) become the booking's; its outages a 503. */
async function ask<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof SystemError)) throw error;
    if (error.kind === 'problem') {
      throw refuse.unprocessable(`No se puede agendar el contacto: ${error.message}`);
    }
    throw new HttpProblem(
      503,
      'Service Unavailable',
      `No se puede comprobar la visibilidad del satélite: ${error.message}`,
    );
  }
}

function describePass(p: Pass): string {
  return `AOS ${p.aos} → LOS ${p.los} (elevación máx. ${Math.round(p.max_elevation_deg * 10) / 10}°)`;
}
