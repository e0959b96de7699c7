import { type ResourceSubscriptions, readJsonResource } from '@code-cluster/mcp-kit';
import type { ElementSource, Satellite, SatelliteSummary } from '@code-cluster/shared/satdt';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SatdtDeps } from './deps.js';

const CATALOG_URI = 'satdt://catalogo';
const SATELLITE_TEMPLATE = 'satdt://satelites/{norad_id}';
const SATELLITE_URI = /^satdt:\/\/satelites\/(\d{1,6})$/;
const MAX_COMPLETIONS = 100;

export function registerResources(
  server: McpServer,
  { satdt, elementChanges, resourcesChanged }: SatdtDeps,
): void {
  if (elementChanges && resourcesChanged) {
    // A satellite new to the catalog is a new resource of the template's list.
    const stop = elementChanges((change) => {
      if (change.added.length > 0) resourcesChanged();
    });
    const previous = server.server.onclose;
    server.server.onclose = () => {
      previous?.();
      stop();
    };
  }

  server.registerResource(
    'catalogo',
    CATALOG_URI,
    {
      title: 'Catálogo de satélites',
      description:
        'Todos los satélites del gemelo: NORAD, nombre, COSPAR, régimen orbital, estado, y época, antigüedad y ' +
        'fuente de sus elementos orbitales.',
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
    new ResourceTemplate(SATELLITE_TEMPLATE, {
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
      description:
        'Entrada de catálogo de un satélite con sus elementos orbitales, su fuente y su TLE. Admite ' +
        'resources/subscribe: cuando llegan elementos nuevos del satélite se envía notifications/resources/updated.',
      mimeType: 'application/json',
    },
    (uri, { norad_id }, { signal }) =>
      readJsonResource(uri, async () => ficha(await satdt.getSatellite(Number(norad_id), signal)), {
        valid: /^\d{1,6}$/.test(String(norad_id)),
      }),
  );
}

/** Resource bodies speak the MCP surface's language (Spanish), like the tools, not the REST API's. */
function identidad(s: SatelliteSummary) {
  return {
    norad_id: s.norad_id,
    nombre: s.name,
    cospar_id: s.cospar_id,
    regimen: s.regime,
    ...(s.subtype === undefined ? {} : { subtipo: s.subtype }),
    estado: s.status,
  };
}

/** A catalog line also says how old each satellite's elements are and where they came from. */
function entrada(s: SatelliteSummary) {
  return {
    ...identidad(s),
    epoca_elementos: s.epoch,
    antiguedad_elementos_dias: s.age_days,
    fuente_elementos: fuenteElementos(s.element_source),
  };
}

/** Where a satellite's current elements came from, in the surface's words. */
export function fuenteElementos(source: ElementSource) {
  return {
    origen: source.origin,
    ubicacion: source.location,
    formato: source.format,
    ...(source.loaded_at === undefined ? {} : { cargados: source.loaded_at }),
  };
}

/**
 * `satdt://satelites/{norad_id}` notifies when that satellite's elements change, `satdt://catalogo` when
 * any do. Only the embedded twin tells of changes; against a remote one a subscription never notifies.
 */
export function elementSubscriptions({ elementChanges }: SatdtDeps): ResourceSubscriptions {
  return {
    templates: [CATALOG_URI, SATELLITE_TEMPLATE],
    matches: (uri) => uri === CATALOG_URI || SATELLITE_URI.test(uri),
    watch: (uri, onChange) => {
      if (!elementChanges) return () => {};
      const noradId = uri === CATALOG_URI ? undefined : Number(SATELLITE_URI.exec(uri)![1]);
      return elementChanges((change) => {
        if (noradId === undefined || change.updated.includes(noradId) || change.added.includes(noradId)) {
          onChange();
        }
      });
    },
  };
}

function ficha(s: Satellite) {
  const e = s.elements;
  return {
    ...identidad(s),
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
    fuente_elementos: fuenteElementos(s.element_source),
    ...(s.tle === undefined ? {} : { tle: { linea1: s.tle.line1, linea2: s.tle.line2 } }),
    fuente: s.source,
  };
}
