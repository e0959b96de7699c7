import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';
import { round } from '../format.js';

const EARTH_RADIUS_KM = 6371;
const DEFAULT_POINTS = 121;

/**
 * View-only (MCP Apps `visibility: ['app']`): the ground-track map of `posicion_satelite` draws one orbit
 * before and one after the instant, and the stations with the ground each one sees the satellite from.
 * Hidden from the model and absent for clients without MCP Apps.
 */
export const trazaOrbital = defineTool({
  name: 'traza_orbital',
  title: 'Traza orbital de un satélite (vista)',
  toolset: 'orbitas',
  description:
    'Puntos subsatélite desde una órbita antes hasta una órbita después de un instante, y las estaciones con ' +
    'su círculo de visibilidad, para dibujar el mapa de la traza de la vista.',
  input: z.strictObject({
    norad_id: z.int().min(1).max(339_999),
    instante: z.iso.datetime({ offset: false }),
    puntos: z.int().min(3).max(361).optional(),
  }),
  output: z.object({
    norad_id: z.int(),
    periodo_min: z.number(),
    puntos: z.array(
      z.object({
        instante: z.string(),
        latitud_deg: z.number(),
        longitud_deg: z.number(),
        iluminado: z.boolean(),
      }),
    ),
    estaciones: z.array(
      z.object({
        id: z.string(),
        nombre: z.string(),
        latitud_deg: z.number(),
        longitud_deg: z.number(),
        mascara_deg: z.number(),
        radio_visibilidad_deg: z
          .number()
          .describe(
            'Ángulo en el centro de la Tierra hasta donde el satélite, a su altitud en el instante, queda sobre la máscara',
          ),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { visibility: ['app'] },
  async handler({ norad_id, instante, puntos = DEFAULT_POINTS }, { deps, signal }: SatdtToolContext) {
    const [satellite, { stations }, here] = await Promise.all([
      deps.satdt.getSatellite(norad_id, signal),
      deps.satdt.listStations(signal),
      deps.satdt.position(norad_id, instante, signal),
    ]);
    const periodMs = satellite.elements.period_min * 60_000;
    const start = Date.parse(instante) - periodMs;
    const step = (2 * periodMs) / (puntos - 1);
    const samples = [];
    for (let i = 0; i < puntos; i++) {
      const p = await deps.satdt.position(norad_id, new Date(start + i * step).toISOString(), signal);
      samples.push({
        instante: p.at,
        latitud_deg: round(p.latitude_deg, 3),
        longitud_deg: round(p.longitude_deg, 3),
        iluminado: p.sunlit,
      });
    }
    const ratio = EARTH_RADIUS_KM / (EARTH_RADIUS_KM + here.altitude_km);
    const estaciones = stations.map((s) => {
      const mask = (s.elevation_mask_deg * Math.PI) / 180;
      const lambda = Math.acos(ratio * Math.cos(mask)) - mask;
      return {
        id: s.id,
        nombre: s.name,
        latitud_deg: s.latitude_deg,
        longitud_deg: s.longitude_deg,
        mascara_deg: s.elevation_mask_deg,
        radio_visibilidad_deg: round((lambda * 180) / Math.PI, 3),
      };
    });
    const data = { norad_id, periodo_min: satellite.elements.period_min, puntos: samples, estaciones };
    return { text: `Traza de ${satellite.name}: ${samples.length} puntos en ±1 órbita.`, data };
  },
});
