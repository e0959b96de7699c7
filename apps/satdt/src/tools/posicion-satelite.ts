import { defineTool } from '@code-cluster/mcp-kit';
import { groundTrackView } from '@code-cluster/views';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';
import { avisoElementos, lines, round, warningField } from '../format.js';

export const posicionSatelite = defineTool({
  name: 'posicion_satelite',
  title: 'Posición de un satélite',
  toolset: 'orbitas',
  description:
    'Punto subsatélite (latitud, longitud), altitud, velocidad y si está iluminado o en eclipse en un ' +
    'instante. Úsala para saber dónde está un satélite ahora o en un momento dado.',
  input: z.strictObject({
    norad_id: z.int().min(1).max(339_999),
    instante: z.iso
      .datetime({ offset: false })
      .optional()
      .describe('Instante (ISO-8601 UTC, p. ej. 2026-11-30T03:14:00Z); por defecto, ahora'),
  }),
  output: z.object({
    norad_id: z.int(),
    nombre: z.string(),
    instante: z.string(),
    latitud_deg: z.number(),
    longitud_deg: z.number(),
    altitud_km: z.number(),
    velocidad_km_s: z.number(),
    iluminado: z.boolean().describe('true: al sol; false: en la sombra de la Tierra'),
    antiguedad_tle_dias: z.number(),
    aviso_elementos: avisoElementos,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { view: groundTrackView },
  async handler({ norad_id, instante }, { deps, signal }: SatdtToolContext) {
    const p = await deps.satdt.position(norad_id, instante, signal);
    const data = {
      norad_id: p.norad_id,
      nombre: p.name,
      instante: p.at,
      latitud_deg: round(p.latitude_deg, 4),
      longitud_deg: round(p.longitude_deg, 4),
      altitud_km: round(p.altitude_km, 2),
      velocidad_km_s: round(p.speed_km_s, 4),
      iluminado: p.sunlit,
      antiguedad_tle_dias: round(p.element_age_days, 2),
      ...warningField(p.element_warning),
    };
    const text = lines(
      `${p.name} a las ${p.at}: latitud ${data.latitud_deg.toFixed(2)}°, longitud ${data.longitud_deg.toFixed(2)}°, ` +
        `altitud ${data.altitud_km.toFixed(0)} km, ${data.velocidad_km_s.toFixed(2)} km/s, ` +
        `${p.sunlit ? 'iluminado por el Sol' : 'en eclipse'}.`,
      p.element_warning,
    );
    return { text, data };
  },
});
