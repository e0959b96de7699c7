import { readJsonResource } from '@code-cluster/mcp-kit';
import type { Satellite, SatelliteSummary } from '@code-cluster/shared/satdt';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SatdtDeps } from './deps.js';

const CATALOG_URI = 'satdt://catalogo';
const MAX_COMPLETIONS = 100;

export function registerResources(server: McpServer, { satdt }: SatdtDeps): void {
  server.registerResource(
    'catalogo',
    CATALOG_URI,
    {
      title: 'Catálogo de satélites',
      description: 'Todos los satélites del gemelo: NORAD, nombre, COSPAR, régimen orbital y estado.',
      mimeType: 'application/json',
    },
    (uri, { signal }) =>
      readJsonResource(uri, async () => {
        const { satellites } = await satdt.listSatellites(undefined, signal);
        return { satelites: satellites.map(entrada) };
      }),
  );

  server.registerResource(
    'satelite',
    new ResourceTemplate('satdt://satelites/{norad_id}', {
      list: async ({ signal }) => {
        const { satellites } = await satdt.listSatellites(undefined, signal);
        return {
          resources: satellites.map((s) => ({
            uri: `satdt://satelites/${s.norad_id}`,
            name: `${s.norad_id}`,
            title: s.name,
            description: `${s.name}: ${s.regime}${s.subtype ? ` (${s.subtype})` : ''}, ${s.status}`,
            mimeType: 'application/json',
          })),
        };
      },
      complete: {
        norad_id: async (value) => {
          const { satellites } = await satdt.listSatellites();
          const needle = value.trim().toLowerCase();
          return satellites
            .filter((s) => `${s.norad_id}`.startsWith(needle) || s.name.toLowerCase().includes(needle))
            .slice(0, MAX_COMPLETIONS)
            .map((s) => `${s.norad_id}`);
        },
      },
    }),
    {
      title: 'Ficha de un satélite',
      description: 'Entrada de catálogo de un satélite con sus elementos orbitales y su TLE.',
      mimeType: 'application/json',
    },
    (uri, { norad_id }, { signal }) =>
      readJsonResource(uri, async () => ficha(await satdt.getSatellite(Number(norad_id), signal)), {
        valid: /^\d{1,6}$/.test(String(norad_id)),
      }),
  );
}

/** Resource bodies speak the MCP surface's language (Spanish), like the tools, not the REST API's. */
function entrada(s: SatelliteSummary) {
  return {
    norad_id: s.norad_id,
    nombre: s.name,
    cospar_id: s.cospar_id,
    regimen: s.regime,
    ...(s.subtype === undefined ? {} : { subtipo: s.subtype }),
    estado: s.status,
  };
}

function ficha(s: Satellite) {
  const e = s.elements;
  return {
    ...entrada(s),
    elementos: {
      epoca: e.epoch,
      antiguedad_dias: e.age_days,
      inclinacion_deg: e.inclination_deg,
      excentricidad: e.eccentricity,
      movimiento_medio_rev_dia: e.mean_motion_rev_day,
      periodo_min: e.period_min,
      semieje_mayor_km: e.semi_major_axis_km,
      apogeo_km: e.apogee_km,
      perigeo_km: e.perigee_km,
      ascension_recta_nodo_deg: e.raan_deg,
      argumento_perigeo_deg: e.arg_perigee_deg,
      anomalia_media_deg: e.mean_anomaly_deg,
      bstar: e.bstar,
      ...(e.warning === undefined ? {} : { aviso: e.warning }),
    },
    tle: { linea1: s.tle.line1, linea2: s.tle.line2 },
    fuente: s.source,
  };
}
