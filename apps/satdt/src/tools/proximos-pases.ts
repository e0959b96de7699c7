import { defineTool } from '@code-cluster/mcp-kit';
import { STATION_IDS } from '@code-cluster/shared/satdt';
import { skyPlotView } from '@code-cluster/views';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';
import { avisoElementos, dayHhmmZ, endHhmmZ, hhmmZ, lines, round, warningField } from '../format.js';

const DEFAULT_HOURS = 24;

const pase = z.object({
  aos: z
    .string()
    .describe(
      'Adquisición de señal: el satélite cruza la máscara de elevación subiendo, o desde si el pase ya estaba ' +
        'en curso (ISO-8601 UTC)',
    ),
  tca: z.string().describe('Máxima aproximación: instante de elevación máxima (ISO-8601 UTC)'),
  los: z
    .string()
    .describe('Pérdida de señal: cruza la máscara bajando, o hasta si el pase sigue en curso (ISO-8601 UTC)'),
  elevacion_max_deg: z.number(),
  azimut_aos_deg: z.number(),
  azimut_los_deg: z.number(),
  duracion_s: z.number(),
  en_curso_al_inicio: z
    .boolean()
    .describe('Ya estaba sobre la máscara al abrir la ventana: el pase había empezado antes (aos = desde)'),
  en_curso_al_final: z.boolean().describe('Seguía sobre la máscara al cerrar la ventana (los = hasta)'),
});

export const proximosPases = defineTool({
  name: 'proximos_pases',
  title: 'Próximos pases sobre una estación',
  toolset: 'orbitas',
  // Exactly as the course quotes it (CONTRACT.md); the details a model needs travel in `desde`'s text.
  description: 'Ventanas de visibilidad futuras desde una estación.',
  input: z.strictObject({
    norad_id: z.int(),
    // A plain string, not an enum: an unknown station is a domain error naming the valid ones (CONTRACT.md),
    // which an enum would turn into a protocol error (-32602) on 2025-06-18 sessions.
    estacion: z
      .string()
      .describe(`Estación terrena desde la que se mira: ${STATION_IDS.join(', ')} (México, Chile, España)`),
    horas: z.int().min(1).max(72).optional(),
    desde: z.iso
      .datetime({ offset: false })
      .optional()
      .describe(
        'Inicio de la ventana (ISO-8601 UTC, p. ej. 2026-11-30T03:14:00Z); por defecto, ahora. La ventana ' +
          `dura 'horas' (1–72, por defecto ${DEFAULT_HOURS}). ` +
          'Cada pase da AOS, TCA y LOS sobre la máscara de elevación de la estación (propagación SGP4).',
      ),
  }),
  output: z.object({
    norad_id: z.int(),
    nombre: z.string(),
    estacion: z.string(),
    desde: z.string(),
    hasta: z.string(),
    visibilidad: z
      .enum(['pases', 'siempre', 'nunca'])
      .describe("'siempre'/'nunca': satélite geosíncrono que no sale ni se pone en la ventana"),
    elevacion_deg: z.number().optional().describe("Elevación al inicio, para 'siempre'/'nunca'"),
    pases: z.array(pase),
    antiguedad_tle_dias: z.number(),
    aviso_elementos: avisoElementos,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: { view: skyPlotView },
  async handler({ norad_id, estacion, horas = DEFAULT_HOURS, desde }, { deps, signal }: SatdtToolContext) {
    const result = await deps.satdt.passes(
      norad_id,
      { station: estacion, hours: horas, from: desde },
      signal,
    );
    const visibilidad = ({ passes: 'pases', always: 'siempre', never: 'nunca' } as const)[result.visibility];
    const pases = result.passes.map((p) => ({
      aos: p.aos,
      tca: p.tca,
      los: p.los,
      elevacion_max_deg: round(p.max_elevation_deg, 3),
      azimut_aos_deg: round(p.aos_azimuth_deg, 2),
      azimut_los_deg: round(p.los_azimuth_deg, 2),
      duracion_s: round(p.duration_s, 3),
      en_curso_al_inicio: p.in_progress_at_start,
      en_curso_al_final: p.in_progress_at_end,
    }));
    const data = {
      norad_id: result.norad_id,
      nombre: result.name,
      estacion: result.station,
      desde: result.from,
      hasta: result.to,
      visibilidad,
      ...(result.elevation_deg === undefined ? {} : { elevacion_deg: round(result.elevation_deg, 2) }),
      pases,
      antiguedad_tle_dias: round(result.element_age_days, 2),
      ...warningField(result.element_warning),
    };
    return {
      text: lines(summary(data), ...details(data.pases), result.element_warning),
      data,
    };
  },
});

function summary(data: {
  nombre: string;
  estacion: string;
  desde: string;
  hasta: string;
  visibilidad: 'pases' | 'siempre' | 'nunca';
  elevacion_deg?: number;
  pases: Array<{ aos: string; elevacion_max_deg: number }>;
}): string {
  if (data.visibilidad === 'siempre') {
    return `${data.nombre} es geosíncrono y está siempre visible desde ${data.estacion} (elevación ${data.elevacion_deg?.toFixed(1)}°): no tiene pases.`;
  }
  if (data.visibilidad === 'nunca') {
    return `${data.nombre} es geosíncrono y nunca sube sobre la máscara de ${data.estacion} (elevación ${data.elevacion_deg?.toFixed(1)}°): no tiene pases.`;
  }
  if (data.pases.length === 0) {
    return `0 pases: ${data.nombre} no sube sobre la máscara de ${data.estacion} entre ${data.desde} y ${data.hasta}.`;
  }
  const items = data.pases.map((p) => `${hhmmZ(p.aos)} (elev ${Math.round(p.elevacion_max_deg)}°)`);
  return `${data.pases.length} ${data.pases.length === 1 ? 'pase' : 'pases'}: ${items.join(', ')}`;
}

/**
 * One line per pass with its date, which the course's one-line summary leaves out; LOS carries its
 * own date when it falls on another day, and a pass cut by the window says so.
 */
function details(
  pases: Array<{
    aos: string;
    los: string;
    elevacion_max_deg: number;
    azimut_aos_deg: number;
    azimut_los_deg: number;
    en_curso_al_inicio: boolean;
    en_curso_al_final: boolean;
  }>,
): string[] {
  return pases.map(
    (p, i) =>
      `${i + 1}. ${dayHhmmZ(p.aos)}–${endHhmmZ(p.aos, p.los)}: elevación máx. ${p.elevacion_max_deg.toFixed(1)}°, ` +
      `azimut ${Math.round(p.azimut_aos_deg)}° → ${Math.round(p.azimut_los_deg)}°` +
      (p.en_curso_al_inicio ? '; ya en curso al abrir la ventana' : '') +
      (p.en_curso_al_final ? '; sigue sobre la máscara al cerrar la ventana' : ''),
  );
}
