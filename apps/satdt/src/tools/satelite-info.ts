import { defineTool } from '@code-cluster/mcp-kit';
import type { ElementSource } from '@code-cluster/shared/satdt';
import { z } from 'zod';
import type { SatdtToolContext } from '../deps.js';
import { avisoElementos, lines, round, warningField } from '../format.js';
import { fuenteElementos } from '../resources.js';

export const sateliteInfo = defineTool({
  name: 'satelite_info',
  title: 'Información de un satélite',
  toolset: 'catalogo',
  description:
    'Datos de catálogo de un satélite. Úsala cuando necesites nombre, régimen orbital o estado operativo.',
  input: z.strictObject({ norad_id: z.int() }),
  output: z.object({
    norad_id: z.int(),
    nombre: z.string(),
    cospar_id: z.string(),
    regimen: z.enum(['LEO', 'MEO', 'GEO', 'HEO']).describe('Régimen orbital derivado de los elementos'),
    subtipo: z
      .enum(['geoestacionaria', 'geosincrona_inclinada', 'geosincrona_excentrica'])
      .optional()
      .describe(
        'Solo en GEO (periodo de un día sidéreo): geoestacionaria si está fija en el cielo (i ≤ 5°, e ≤ 0,01); ' +
          'geosincrona_inclinada o geosincrona_excentrica si se mueve en él y puede salir y ponerse',
      ),
    estado: z.enum(['operativo', 'retirado']),
    inclinacion_deg: z.number(),
    periodo_min: z.number(),
    apogeo_km: z.number(),
    perigeo_km: z.number(),
    excentricidad: z.number(),
    epoca_tle: z.string().describe('Época del juego de elementos (ISO-8601 UTC)'),
    antiguedad_tle_dias: z.number().describe('Días transcurridos desde la época de los elementos'),
    fuente_elementos: z
      .object({
        origen: z.enum(['catalogo_incluido', 'archivo', 'url']),
        ubicacion: z.string(),
        formato: z.enum(['tle', 'omm']),
        cargados: z.string().optional().describe('Cuándo los tomó el gemelo (ISO-8601 UTC)'),
      })
      .describe('De dónde vienen los elementos vigentes del satélite'),
    aviso_elementos: avisoElementos,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler({ norad_id }, { deps, signal }: SatdtToolContext) {
    const sat = await deps.satdt.getSatellite(norad_id, signal);
    const e = sat.elements;
    const data = {
      norad_id: sat.norad_id,
      nombre: sat.name,
      cospar_id: sat.cospar_id,
      regimen: sat.regime,
      ...(sat.subtype === undefined ? {} : { subtipo: sat.subtype }),
      estado: sat.status,
      inclinacion_deg: round(e.inclination_deg, 4),
      periodo_min: round(e.period_min, 3),
      apogeo_km: round(e.apogee_km, 1),
      perigeo_km: round(e.perigee_km, 1),
      excentricidad: e.eccentricity,
      epoca_tle: e.epoch,
      antiguedad_tle_dias: round(e.age_days, 2),
      fuente_elementos: fuenteElementos(sat.element_source),
      ...warningField(e.warning),
    };
    const text = lines(
      `${sat.name} (NORAD ${sat.norad_id}, COSPAR ${sat.cospar_id}): ${sat.regime}${subtypeText(sat.subtype)}, ` +
        `${sat.status}. ` +
        `Inclinación ${data.inclinacion_deg.toFixed(2)}°, periodo ${data.periodo_min.toFixed(1)} min, ` +
        `apogeo ${Math.round(e.apogee_km)} km, perigeo ${Math.round(e.perigee_km)} km. ` +
        `Elementos ${sat.element_source.format.toUpperCase()} de ${e.epoch} (${data.antiguedad_tle_dias.toFixed(1)} días), ` +
        `${sourceText(sat.element_source)}.`,
      e.warning,
    );
    return { text, data };
  },
});

function sourceText(source: ElementSource): string {
  switch (source.origin) {
    case 'catalogo_incluido':
      return 'del catálogo incluido con el gemelo';
    case 'archivo':
      return `del archivo ${source.location}, cargados ${source.loaded_at}`;
    default:
      return `de ${source.location}, descargados ${source.loaded_at}`;
  }
}

function subtypeText(subtype: string | undefined): string {
  switch (subtype) {
    case 'geoestacionaria':
      return ' (geoestacionaria: fija en el cielo)';
    case 'geosincrona_inclinada':
      return ' (geosíncrona inclinada: no está fija en el cielo; sube y baja en latitud cada día)';
    case 'geosincrona_excentrica':
      return ' (geosíncrona excéntrica: no está fija en el cielo; oscila al este y al oeste cada día)';
    default:
      return '';
  }
}
