import { SUPPORTED_PROTOCOL_VERSIONS } from '@code-cluster/mcp-kit';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEmbedded, PINNED, resourceText, textOf } from './helpers.js';

let client: Client;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ client, close } = await connectEmbedded());
});
afterAll(() => close());

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('satelite_info', () => {
  it('describes the ISS from its elements', async () => {
    const result = await call('satelite_info', { norad_id: 25544 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      norad_id: 25544,
      nombre: 'ISS (ZARYA)',
      cospar_id: '1998-067A',
      regimen: 'LEO',
      estado: 'operativo',
    });
    const data = result.structuredContent as {
      inclinacion_deg: number;
      periodo_min: number;
      apogeo_km: number;
    };
    expect(data.inclinacion_deg).toBeCloseTo(51.6, 0);
    expect(data.periodo_min).toBeGreaterThan(90);
    expect(data.periodo_min).toBeLessThan(95);
    expect(textOf(result)).toContain('ISS (ZARYA)');
  });

  it('reports retired satellites and non-LEO regimes', async () => {
    const noaa15 = await call('satelite_info', { norad_id: 25338 });
    expect(noaa15.structuredContent).toMatchObject({ nombre: 'NOAA 15', estado: 'retirado' });
    const lageos = await call('satelite_info', { norad_id: 8820 });
    expect(lageos.structuredContent).toMatchObject({ nombre: 'LAGEOS 1', regimen: 'MEO' });
  });

  it('classes QZS-2 as an inclined geosynchronous orbit, not a geostationary one', async () => {
    const qzs = await call('satelite_info', { norad_id: 42738 });
    expect(qzs.structuredContent).toMatchObject({ regimen: 'GEO', subtipo: 'geosincrona_inclinada' });
    expect(textOf(qzs)).toContain('GEO (geosíncrona inclinada: no está fija en el cielo');
    const goes = await call('satelite_info', { norad_id: 51850 });
    expect(goes.structuredContent).toMatchObject({ regimen: 'GEO', subtipo: 'geoestacionaria' });
    const iss = await call('satelite_info', { norad_id: 25544 });
    expect(iss.structuredContent).not.toHaveProperty('subtipo');
  });

  it('words the stale-elements warning for the regime: no low-orbit talk for a GEO satellite', async () => {
    const later = await connectEmbedded(undefined, '2026-12-01T00:00:00.000Z');
    try {
      const info = async (norad_id: number) => {
        const r = (await later.client.callTool({
          name: 'satelite_info',
          arguments: { norad_id },
        })) as CallToolResult;
        return (r.structuredContent as { aviso_elementos: string }).aviso_elementos;
      };
      expect(await info(25544)).toContain('en órbita baja el rozamiento atmosférico');
      expect(await info(51850)).toContain('un satélite geoestacionario maniobra');
      expect(await info(51850)).not.toContain('órbita baja');
      expect(await info(42738)).toContain('un satélite geosíncrono maniobra');
    } finally {
      await later.close();
    }
  });

  it('answers an unknown satellite with a domain error the model can act on', async () => {
    const result = await call('satelite_info', { norad_id: 99999 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/No hay ningún satélite con NORAD 99999/);
    expect(textOf(result)).toContain('satdt://catalogo');
  });
});

describe('proximos_pases', () => {
  it('lists the passes of the ISS over orbiteye-mx in the course format', async () => {
    const result = await call('proximos_pases', {
      norad_id: 25544,
      estacion: 'orbiteye-mx',
      horas: 24,
      desde: PINNED,
    });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as {
      visibilidad: string;
      pases: Array<{ aos: string; tca: string; los: string; elevacion_max_deg: number; duracion_s: number }>;
    };
    expect(data.visibilidad).toBe('pases');
    expect(data.pases.length).toBeGreaterThan(0);
    for (const p of data.pases) {
      expect(p.aos).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(p.aos)).toBeLessThanOrEqual(Date.parse(p.tca));
      expect(Date.parse(p.tca)).toBeLessThanOrEqual(Date.parse(p.los));
      expect(p.elevacion_max_deg).toBeGreaterThanOrEqual(10);
      expect(p.duracion_s).toBeCloseTo((Date.parse(p.los) - Date.parse(p.aos)) / 1000, 1);
    }
    const first = textOf(result).split('\n')[0]!;
    expect(first).toMatch(/^\d+ pases?: \d\d:\d\dZ \(elev \d+°\)(, \d\d:\d\dZ \(elev \d+°\))*$/);
    expect(first.startsWith(`${data.pases.length} pase`)).toBe(true);
    // Then one line per pass with its date, for windows that span several days.
    const detail = textOf(result)
      .split('\n')
      .slice(1, 1 + data.pases.length);
    expect(detail[0]).toMatch(
      /^1\. \d\d\/\d\d \d\d:\d\dZ–\d\d:\d\dZ: elevación máx\. \d+\.\d°, azimut \d+° → \d+°$/,
    );
  });

  it('answers a geostationary satellite as always or never visible, not a pass list', async () => {
    const catalog = await client.readResource({ uri: 'satdt://catalogo' });
    const sats = JSON.parse(resourceText(catalog)).satelites as Array<{ norad_id: number; subtipo?: string }>;
    const geo = sats.find((s) => s.subtipo === 'geoestacionaria')!;
    const result = await call('proximos_pases', {
      norad_id: geo.norad_id,
      estacion: 'orbiteye-es',
      desde: PINNED,
    });
    const data = result.structuredContent as { visibilidad: string; pases: unknown[] };
    expect(['siempre', 'nunca']).toContain(data.visibilidad);
    expect(data.pases).toEqual([]);
    expect(textOf(result)).toContain('geosíncrono');
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS)(
    'answers an unknown station with a domain error naming the stations on protocol %s',
    async (version) => {
      const session = await connectEmbedded(version);
      try {
        const result = (await session.client.callTool({
          name: 'proximos_pases',
          arguments: { norad_id: 25544, estacion: 'orbiteye-ar', desde: PINNED },
        })) as CallToolResult;
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(
          "No existe la estación 'orbiteye-ar'. Estaciones disponibles: orbiteye-mx, orbiteye-cl, orbiteye-es.",
        );
      } finally {
        await session.close();
      }
    },
  );

  it('dates a LOS that falls on the next day instead of reading backwards', async () => {
    // The ISS rises over Madrid at 23:58Z on 28/06 and sets at 00:06Z on 29/06.
    const result = await call('proximos_pases', {
      norad_id: 25544,
      estacion: 'orbiteye-es',
      horas: 2,
      desde: '2026-06-28T23:00:00Z',
    });
    const [first, detail] = textOf(result).split('\n');
    expect(first).toBe('1 pase: 23:58Z (elev 36°)');
    expect(detail).toMatch(/^1\. 28\/06 23:58Z–29\/06 00:06Z: elevación máx\. \d+\.\d°, azimut \d+° → \d+°$/);
    const same = await call('proximos_pases', { norad_id: 25544, estacion: 'orbiteye-mx', desde: PINNED });
    expect(textOf(same).split('\n')[1]).toMatch(/^1\. 27\/06 \d\d:\d\dZ–\d\d:\d\dZ: /);
  });

  it('marks a pass already under way when the window opens, in structuredContent and text', async () => {
    const result = await call('proximos_pases', {
      norad_id: 25544,
      estacion: 'orbiteye-es',
      horas: 1,
      desde: '2026-06-29T00:00:00Z',
    });
    const data = result.structuredContent as {
      pases: Array<{ aos: string; en_curso_al_inicio: boolean; en_curso_al_final: boolean }>;
    };
    expect(data.pases[0]).toMatchObject({
      aos: '2026-06-29T00:00:00.000Z',
      en_curso_al_inicio: true,
      en_curso_al_final: false,
    });
    const [first, detail] = textOf(result).split('\n');
    expect(first).toMatch(/^\d+ pases?: 00:00Z \(elev \d+°\)/);
    expect(detail).toMatch(/^1\. 29\/06 00:00Z–00:06Z: .*; ya en curso al abrir la ventana$/);
  });

  it('refuses a window far before the element epoch (1990) instead of inventing passes', async () => {
    const result = await call('proximos_pases', {
      norad_id: 25544,
      estacion: 'orbiteye-mx',
      desde: '1990-01-01T00:00:00Z',
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^No se puede propagar ISS \(ZARYA\) \(NORAD 25544\) a ese instante: 1990-01-01T00:00:00\.000Z queda 13326 días antes de la época de sus elementos .* LEO \(baja\) .* 365 días .* Elige un instante entre 2025-06-26T16:06:15\.917Z y 2027-06-26T16:06:15\.917Z\.$/,
    );
  });

  it('rejects horas: 200 naming the argument, the bound and the value', async () => {
    // The SDK client negotiates 2025-11-25, so the violation is an isError result (SEP-1303).
    const result = await call('proximos_pases', { norad_id: 25544, estacion: 'orbiteye-mx', horas: 200 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "Argumentos inválidos para 'proximos_pases': 'horas' debe ser ≤ 72; recibido: 200.",
    );
  });
});

describe('posicion_satelite', () => {
  it('gives the sub-satellite point, altitude, speed and illumination', async () => {
    const result = await call('posicion_satelite', { norad_id: 25544, instante: PINNED });
    const data = result.structuredContent as Record<string, number | boolean | string>;
    expect(data.instante).toBe(PINNED);
    expect(Math.abs(data.latitud_deg as number)).toBeLessThanOrEqual(51.7);
    expect(data.altitud_km).toBeGreaterThan(380);
    expect(data.altitud_km).toBeLessThan(450);
    expect(data.velocidad_km_s).toBeCloseTo(7.66, 1);
    expect(typeof data.iluminado).toBe('boolean');
  });

  it('refuses the ISS in 1950 (it answered 129 million km) with a Spanish domain error', async () => {
    const result = await call('posicion_satelite', { norad_id: 25544, instante: '1950-01-01T00:00:00Z' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('1950-01-01T00:00:00.000Z queda 27936 días antes de la época');
    expect(textOf(result)).not.toMatch(/altitud/);
  });

  it('warns before the epoch as after it, in the text and in structuredContent', async () => {
    const result = await call('posicion_satelite', { norad_id: 25544, instante: '2026-06-01T00:00:00Z' });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { antiguedad_tle_dias: number; aviso_elementos?: string };
    expect(data.antiguedad_tle_dias).toBeLessThan(-25);
    expect(data.aviso_elementos).toMatch(/^Aviso: ese instante es 26 días anterior a la época/);
    expect(textOf(result).split('\n')[1]).toBe(data.aviso_elementos);
    const fresh = await call('posicion_satelite', { norad_id: 25544, instante: PINNED });
    expect(fresh.structuredContent).not.toHaveProperty('aviso_elementos');
    expect(textOf(fresh)).not.toContain('Aviso');
  });

  it('answers an unknown satellite with a domain error', async () => {
    const result = await call('posicion_satelite', { norad_id: 12345 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('NORAD 12345');
  });
});

describe('telemetria_satelite', () => {
  it('is consistent with the orbit: in eclipse the battery discharges', async () => {
    let sawEclipse = false;
    let sawSun = false;
    for (let minute = 0; minute < 100 && !(sawEclipse && sawSun); minute += 5) {
      const at = new Date(Date.parse(PINNED) + minute * 60_000).toISOString();
      const result = await call('telemetria_satelite', { norad_id: 25544, instante: at });
      const t = result.structuredContent as {
        iluminado: boolean;
        bateria: { carga_pct: number; cargando: boolean; corriente_a: number };
      };
      expect(t.bateria.carga_pct).toBeGreaterThanOrEqual(0);
      expect(t.bateria.carga_pct).toBeLessThanOrEqual(100);
      if (t.iluminado) sawSun = true;
      else {
        sawEclipse = true;
        expect(t.bateria.cargando).toBe(false);
        expect(t.bateria.corriente_a).toBeLessThan(0);
      }
    }
    expect(sawEclipse && sawSun).toBe(true);
  });

  it('answers an unknown satellite with a domain error', async () => {
    const result = await call('telemetria_satelite', { norad_id: 4 });
    expect(result.isError).toBe(true);
  });
});
