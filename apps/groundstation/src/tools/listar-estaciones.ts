import { defineTool } from '@code-cluster/mcp-kit';
import { z } from 'zod';
import type { GroundstationToolContext } from '../deps.js';
import { mantenimiento, mantenimientoSchema } from '../format.js';

export const listarEstaciones = defineTool({
  name: 'listar_estaciones',
  title: 'Estaciones terrenas',
  toolset: 'estaciones',
  description:
    'Lista las estaciones terrenas de la red OrbitEye con su ubicación, máscara de elevación, antenas ' +
    '(banda y diámetro) y si están operativas o en mantenimiento. Úsala primero para saber qué estaciones ' +
    'y antenas hay antes de consultar su estado o agendar un contacto.',
  input: z.strictObject({}),
  output: z.object({
    estaciones: z.array(
      z.object({
        id: z.string(),
        nombre: z.string(),
        ciudad: z.string(),
        latitud_deg: z.number(),
        longitud_deg: z.number(),
        altitud_m: z.number(),
        mascara_elevacion_deg: z.number(),
        estado: z.enum(['operativa', 'mantenimiento']),
        antenas: z.array(
          z.object({
            id: z.string(),
            banda: z.enum(['UHF', 'S', 'X']),
            diametro_m: z.number(),
            bajada_mhz: z.number(),
          }),
        ),
        mantenimiento: mantenimientoSchema.optional().describe('Ventana de mantenimiento en vigor ahora'),
      }),
    ),
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(_args, { deps, signal }: GroundstationToolContext) {
    const { stations } = await deps.groundstation.listStations(signal);
    const estaciones = stations.map((s) => ({
      id: s.id,
      nombre: s.name,
      ciudad: s.city,
      latitud_deg: s.latitude_deg,
      longitud_deg: s.longitude_deg,
      altitud_m: s.altitude_m,
      mascara_elevacion_deg: s.elevation_mask_deg,
      estado: s.status,
      antenas: s.antennas.map((a) => ({
        id: a.id,
        banda: a.band,
        diametro_m: a.diameter_m,
        bajada_mhz: a.downlink_mhz,
      })),
      ...(s.maintenance ? { mantenimiento: mantenimiento(s.maintenance) } : {}),
    }));
    const rows = estaciones.map((e) => {
      const antenas = e.antenas.map((a) => `${a.id} (${a.banda})`).join(', ');
      const estado = e.mantenimiento
        ? `en mantenimiento hasta ${e.mantenimiento.fin} (${e.mantenimiento.motivo})`
        : 'operativa';
      return `- ${e.id} (${e.ciudad}): ${estado}; antenas ${antenas}`;
    });
    return { text: `${estaciones.length} estaciones:\n${rows.join('\n')}`, data: { estaciones } };
  },
});
