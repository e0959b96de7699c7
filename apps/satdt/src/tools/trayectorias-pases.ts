import { DomainError, defineTool } from '@code-cluster/mcp-kit';
import { STATION_IDS } from '@code-cluster/shared/satdt';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';
import { round } from '../format.js';
import { lookAngles } from '../views/look-angles.js';

const MAX_PASSES = 30;
const MAX_POINTS = 60;
const DEFAULT_POINTS = 24;

/**
 * View-only (MCP Apps `visibility: ['app']`): the sky plot of `proximos_pases` asks for the azimuth and
 * elevation along each pass, which that tool's result does not carry. Hidden from the model, and absent for
 * clients without MCP Apps, so `proximos_pases` stays exactly as other clients know it.
 */
export const trayectoriasPases = defineTool({
  name: 'trayectorias_pases',
  title: 'Trayectorias de pases en el cielo (vista)',
  toolset: 'orbitas',
  description:
    'Azimut y elevación a lo largo de cada pase, para dibujarlo en el gráfico del cielo de la vista.',
  input: z.strictObject({
    norad_id: z.int().min(1).max(339_999),
    estacion: z.enum(STATION_IDS),
    pases: z
      .array(
        z.strictObject({ aos: z.iso.datetime({ offset: false }), los: z.iso.datetime({ offset: false }) }),
      )
      .min(1)
      .max(MAX_PASSES),
    puntos: z.int().min(2).max(MAX_POINTS).optional(),
  }),
  output: z.object({
    estacion: z.object({ id: z.string(), nombre: z.string(), mascara_deg: z.number() }),
    trayectorias: z.array(
      z.object({
        aos: z.string(),
        los: z.string(),
        puntos: z.array(
          z.object({ instante: z.string(), azimut_deg: z.number(), elevacion_deg: z.number() }),
        ),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ['app'] },
  async handler({ norad_id, estacion, pases, puntos = DEFAULT_POINTS }, { deps, signal }: SatdtToolContext) {
    pases.forEach((pase, i) => {
      if (Date.parse(pase.los) <= Date.parse(pase.aos)) {
        throw new DomainError(
          `'pases[${i}].los' (${pase.los}) debe ser posterior a 'pases[${i}].aos' (${pase.aos}).`,
        );
      }
    });
    const { stations } = await deps.satdt.listStations(signal);
    const station = stations.find((s) => s.id === estacion);
    if (!station) throw new Error(`station ${estacion} missing from the twin's list`);
    const site = { ...station, altitude_km: station.altitude_m / 1000 };
    const trayectorias = [];
    for (const pase of pases) {
      const start = Date.parse(pase.aos);
      const step = (Date.parse(pase.los) - start) / (puntos - 1);
      const samples = [];
      for (let i = 0; i < puntos; i++) {
        const at = new Date(start + i * step).toISOString();
        const p = await deps.satdt.position(norad_id, at, signal);
        const { azimuth_deg, elevation_deg } = lookAngles(site, p);
        samples.push({
          instante: at,
          azimut_deg: round(azimuth_deg, 2),
          elevacion_deg: round(elevation_deg, 2),
        });
      }
      trayectorias.push({ aos: pase.aos, los: pase.los, puntos: samples });
    }
    const data = {
      estacion: { id: station.id, nombre: station.name, mascara_deg: station.elevation_mask_deg },
      trayectorias,
    };
    return { text: `${trayectorias.length} trayectorias de ${puntos} puntos sobre ${station.id}.`, data };
  },
});
