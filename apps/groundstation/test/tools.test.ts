import { Logger, NO_CLIENT_FEATURES, SessionTools } from '@code-cluster/mcp-kit';
import { inProcessTransport } from '@code-cluster/shared';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { SatdtClient } from '@code-cluster/shared/satdt';
import { createGroundstationSystem } from '@code-cluster/systems/groundstation';
import { createSatdtSystem } from '@code-cluster/systems/satdt';
import { freshDatabase } from '@code-cluster/testkit/postgres';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programarMantenimiento } from '../src/tools/programar-mantenimiento.js';
import { after, connectEmbedded, GEO, PINNED, textOf } from './helpers.js';

/** The same tools on each engine of the embedded system; the PostgreSQL leg is skipped (and says why) without one. */
const pg = await freshDatabase(
  'groundstation-mcp tools on PostgreSQL (apps/groundstation/test/tools.test.ts)',
);
afterAll(() => pg?.drop());

let client: Client;

const call = async (name: string, args: Record<string, unknown>, on: Client = client) =>
  (await on.callTool({ name, arguments: args })) as CallToolResult;

/** The structured content of a result, typed as the test expects it. */
const structured = <T>(result: CallToolResult) => result.structuredContent as unknown as T;

interface Contacto {
  contacto_id: string;
  antena: string;
  estado: string;
  inicio: string;
  fin: string;
}

for (const { engine, databaseUrl } of [
  { engine: 'sqlite', databaseUrl: undefined },
  { engine: 'postgres', databaseUrl: pg?.url },
]) {
  describe.skipIf(engine === 'postgres' && !pg)(`groundstation-mcp's tools on ${engine}`, () => {
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ client, close } = await connectEmbedded({ databaseUrl }));
    });
    afterAll(() => close());

    describe('listar_estaciones', () => {
      it('lists the three stations, orbiteye-cl in maintenance with its window', async () => {
        const result = await call('listar_estaciones', {});
        expect(result.isError).toBeFalsy();
        const { estaciones } = result.structuredContent as {
          estaciones: Array<{
            id: string;
            estado: string;
            antenas: unknown[];
            mantenimiento?: { fin: string };
          }>;
        };
        expect(estaciones.map((e) => [e.id, e.estado])).toEqual([
          ['orbiteye-mx', 'operativa'],
          ['orbiteye-cl', 'mantenimiento'],
          ['orbiteye-es', 'operativa'],
        ]);
        expect(estaciones[1]!.mantenimiento?.fin).toBe('2027-01-15T00:00:00.000Z');
        expect(textOf(result)).toContain(
          'orbiteye-cl (Santiago de Chile): en mantenimiento hasta 2027-01-15T00:00:00.000Z',
        );
      });

      it('refuses arguments it does not take', async () => {
        const result = await call('listar_estaciones', { estacion: 'orbiteye-mx' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain("argumento desconocido 'estacion'");
      });
    });

    describe('estado_estacion', () => {
      it('reports status, antennas and health readings of an operational station', async () => {
        const result = await call('estado_estacion', { estacion: 'orbiteye-mx' });
        expect(result.isError).toBeFalsy();
        const data = result.structuredContent as {
          estado: string;
          instante: string;
          antenas: Array<{ id: string; banda: string; ruido_lna_k: number }>;
          salud: { temperatura_exterior_c: number; viento_m_s: number; carga_sai_pct: number };
        };
        expect(data.estado).toBe('operativa');
        expect(data.instante).toBe('2026-12-01T10:30:00.000Z');
        expect(data.antenas.map((a) => [a.id, a.banda])).toEqual([
          ['mx-s1', 'S'],
          ['mx-x1', 'X'],
        ]);
        expect(data.salud.viento_m_s).toBeGreaterThanOrEqual(0);
        expect(textOf(result)).toMatch(/^orbiteye-mx \(OrbitEye México\) a las .*: operativa\./);
      });

      it('shows orbiteye-cl in maintenance with the window', async () => {
        const result = await call('estado_estacion', { estacion: 'orbiteye-cl' });
        const data = result.structuredContent as {
          estado: string;
          mantenimiento_actual: { inicio: string; fin: string };
        };
        expect(data.estado).toBe('mantenimiento');
        expect(data.mantenimiento_actual).toMatchObject({
          inicio: '2026-11-23T00:00:00.000Z',
          fin: '2027-01-15T00:00:00.000Z',
        });
        expect(textOf(result)).toContain('EN MANTENIMIENTO');
      });

      it('answers an unknown station with a domain error listing the stations', async () => {
        const result = await call('estado_estacion', { estacion: 'orbiteye-ar' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(
          "No existe la estación 'orbiteye-ar'. Estaciones disponibles: orbiteye-mx, orbiteye-cl, orbiteye-es.",
        );
      });
    });

    describe('agendar_contacto', () => {
      it('books a contact on the first free antenna', async () => {
        const result = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MEXSAT_3,
          inicio: after(60),
          fin: after(70),
        });
        expect(result.isError).toBeFalsy();
        const data = structured<Contacto & { duracion_min: number }>(result);
        expect(data).toMatchObject({
          estacion: 'orbiteye-mx',
          antena: 'mx-s1',
          estado: 'programado',
          duracion_min: 10,
        });
        expect(data.contacto_id).toMatch(/^ct-[0-9a-f]{12}$/);
        expect(textOf(result)).toContain(
          `Contacto ${data.contacto_id} agendado en orbiteye-mx, antena mx-s1`,
        );
      });

      it('refuses orbiteye-cl: the text says the station is in maintenance, with the window', async () => {
        const result = await call('agendar_contacto', {
          estacion: 'orbiteye-cl',
          norad_id: GEO.MEXSAT_3,
          inicio: after(60),
          fin: after(70),
        });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(
          /^La estación orbiteye-cl está en mantenimiento del 2026-11-23T00:00:00\.000Z al 2027-01-15T00:00:00\.000Z/,
        );
      });

      it('refuses an overlapping booking on the same antenna, naming the conflict', async () => {
        const first = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MEXSAT_3,
          inicio: after(120),
          fin: after(130),
          antena: 'mx-x1',
        });
        const taken = structured<Contacto>(first);
        const result = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MORELOS_3,
          inicio: after(125),
          fin: after(140),
          antena: 'mx-x1',
        });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(
          `contacto ${taken.contacto_id} en la antena mx-x1 (NORAD ${GEO.MEXSAT_3}) de ${taken.inicio} a ${taken.fin}`,
        );
      });

      it('refuses a window in the past, and one longer than 4 h', async () => {
        const past = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MEXSAT_3,
          inicio: after(-30),
          fin: after(-20),
        });
        expect(past.isError).toBe(true);
        expect(textOf(past)).toContain('empieza en el pasado');
        const long = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MEXSAT_3,
          inicio: after(600),
          fin: after(600 + 5 * 60),
        });
        expect(long.isError).toBe(true);
        expect(textOf(long)).toContain('el máximo es 240 min');
      });

      it('rejects a time with an offset and a non-positive norad_id as argument errors', async () => {
        const offset = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: GEO.MEXSAT_3,
          inicio: '2026-12-01T12:00:00+02:00',
          fin: after(200),
        });
        expect(offset.isError).toBe(true);
        expect(textOf(offset)).toContain("'inicio' debe ser una fecha ISO-8601 en UTC");
        const norad = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: 0,
          inicio: after(60),
          fin: after(70),
        });
        expect(textOf(norad)).toContain("'norad_id' debe ser ≥ 1; recibido: 0");
      });
    });

    describe('agendar_contacto checks the satellite', () => {
      /** ISS passes as satdt gives them from the pinned clock: the twin the ground station must agree with. */
      const issPasses = async (estacion: string) => {
        const satdt = new SatdtClient(
          inProcessTransport(() => createSatdtSystem({ now: () => Date.parse(PINNED) }).handler),
        );
        return (await satdt.passes(25544, { station: estacion, from: PINNED, hours: 48 })).passes;
      };

      it('books an ISS pass over orbiteye-mx, and refuses one that only orbiteye-es sees, naming the next passes', async () => {
        const mx = await issPasses('orbiteye-mx');
        const cl = await issPasses('orbiteye-cl');
        const seenBy = (p: { aos: string; los: string }, others: Array<{ aos: string; los: string }>) =>
          others.some((q) => Date.parse(p.aos) < Date.parse(q.los) && Date.parse(q.aos) < Date.parse(p.los));
        const onlyEs = (await issPasses('orbiteye-es')).find((p) => !seenBy(p, mx) && !seenBy(p, cl))!;
        const refused = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: 25544,
          inicio: onlyEs.aos,
          fin: onlyEs.los,
        });
        expect(refused.isError).toBe(true);
        const next = mx.find((p) => Date.parse(p.aos) >= Date.parse(onlyEs.los))!;
        expect(textOf(refused)).toMatch(
          /^ISS \(ZARYA\) \(NORAD 25544\) no está sobre la máscara de elevación de orbiteye-mx/,
        );
        expect(textOf(refused)).toContain(`Próximos pases sobre orbiteye-mx: AOS ${next.aos.slice(0, 19)}`);
        expect(textOf(refused)).toContain('En esa ventana sí es visible desde orbiteye-es.');
        const booked = await call('agendar_contacto', {
          estacion: 'orbiteye-mx',
          norad_id: 25544,
          inicio: next.aos,
          fin: next.los,
        });
        expect(booked.isError).toBeFalsy();
      });

      it('refuses a satellite in no catalog, a retired one, and the same satellite on both antennas at once', async () => {
        const window = { estacion: 'orbiteye-mx', inicio: after(3000), fin: after(3010) };
        const unknown = await call('agendar_contacto', { ...window, norad_id: 99999 });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toContain('No hay ningún satélite con NORAD 99999 en el catálogo');
        const retired = await call('agendar_contacto', { ...window, norad_id: 25338 });
        expect(retired.isError).toBe(true);
        expect(textOf(retired)).toContain('NOAA 15 (NORAD 25338) está retirado');
        const first = structured<Contacto>(
          await call('agendar_contacto', { ...window, norad_id: GEO.MORELOS_3 }),
        );
        const twice = await call('agendar_contacto', { ...window, norad_id: GEO.MORELOS_3, antena: 'mx-x1' });
        expect(twice.isError).toBe(true);
        expect(textOf(twice)).toContain(`NORAD ${GEO.MORELOS_3} ya tiene un contacto en orbiteye-mx`);
        expect(textOf(twice)).toContain(first.contacto_id);
      });
    });

    describe('cancelar_contacto', () => {
      it('cancels a booked contact and frees its antenna', async () => {
        const booked = structured<Contacto>(
          await call('agendar_contacto', {
            estacion: 'orbiteye-mx',
            norad_id: GEO.GOES_17,
            inicio: after(900),
            fin: after(910),
          }),
        );
        const result = await call('cancelar_contacto', { contacto_id: booked.contacto_id });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({
          contacto_id: booked.contacto_id,
          estado: 'cancelado',
        });
        expect(textOf(result)).toContain(`la antena ${booked.antena} de orbiteye-mx queda libre`);
        const again = await call('cancelar_contacto', { contacto_id: booked.contacto_id });
        expect(again.isError).toBe(true);
        expect(textOf(again)).toContain('ya estaba cancelado');
      });

      it('answers an unknown contact with a domain error, and a malformed id with an argument error', async () => {
        const unknown = await call('cancelar_contacto', { contacto_id: 'ct-0123456789ab' });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toContain("No existe el contacto 'ct-0123456789ab'");
        const malformed = await call('cancelar_contacto', { contacto_id: '42' });
        expect(malformed.isError).toBe(true);
        expect(textOf(malformed)).toContain("'contacto_id'");
      });
    });

    describe('agenda_estacion', () => {
      it('lists the contacts of a station in the window, by start', async () => {
        for (const [inicio, fin] of [
          [after(30), after(40)],
          [after(130), after(140)],
        ]) {
          await call('agendar_contacto', { estacion: 'orbiteye-es', norad_id: GEO.METEOSAT_11, inicio, fin });
        }
        const result = await call('agenda_estacion', { estacion: 'orbiteye-es', horas: 3 });
        expect(result.isError).toBeFalsy();
        const data = result.structuredContent as { contactos: Contacto[]; desde: string; hasta: string };
        expect(data.desde).toBe('2026-12-01T10:30:00.000Z');
        expect(data.hasta).toBe('2026-12-01T13:30:00.000Z');
        expect(data.contactos.length).toBeGreaterThanOrEqual(2);
        const starts = data.contactos.map((c) => c.inicio);
        expect([...starts].sort()).toEqual(starts);
        expect(textOf(result)).toMatch(
          /^Agenda de orbiteye-es de .*: \d+ contactos:\n- 01\/12 11:00Z–01\/12 11:10Z antena es-s1/,
        );
      });

      it('warns about maintenance in the agenda of orbiteye-cl', async () => {
        const result = await call('agenda_estacion', { estacion: 'orbiteye-cl' });
        expect(textOf(result)).toContain(
          'Atención: mantenimiento del 2026-11-23T00:00:00.000Z al 2027-01-15T00:00:00.000Z',
        );
      });

      it('rejects horas: 200 naming the argument, the bound and the value', async () => {
        const result = await call('agenda_estacion', { estacion: 'orbiteye-mx', horas: 200 });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(
          "Argumentos inválidos para 'agenda_estacion': 'horas' debe ser ≤ 168; recibido: 200.",
        );
      });

      it('answers an unknown station with a domain error', async () => {
        const result = await call('agenda_estacion', { estacion: 'nowhere' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain("No existe la estación 'nowhere'");
      });
    });

    describe('programar_mantenimiento (operator scope)', () => {
      it('programs a window that then refuses bookings on that station', async () => {
        const operator = await connectEmbedded({ scope: 'operador', databaseUrl });
        try {
          const result = await call(
            'programar_mantenimiento',
            {
              estacion: 'orbiteye-mx',
              inicio: after(24 * 60),
              fin: after(26 * 60),
              motivo: 'Cambio del rodamiento',
            },
            operator.client,
          );
          expect(result.isError).toBeFalsy();
          expect(result.structuredContent).toMatchObject({
            estacion: 'orbiteye-mx',
            origen: 'operador',
            motivo: 'Cambio del rodamiento',
          });
          const booking = await call(
            'agendar_contacto',
            {
              estacion: 'orbiteye-mx',
              norad_id: GEO.MEXSAT_3,
              inicio: after(25 * 60),
              fin: after(25 * 60 + 5),
            },
            operator.client,
          );
          expect(booking.isError).toBe(true);
          expect(textOf(booking)).toContain('La estación orbiteye-mx está en mantenimiento');
          // Windows add up: an overlapping one is programmed too, and the station stays down until both end.
          const overlap = await call(
            'programar_mantenimiento',
            { estacion: 'orbiteye-mx', inicio: after(25 * 60), fin: after(27 * 60), motivo: 'Otra cosa' },
            operator.client,
          );
          expect(overlap.isError).toBeFalsy();
          const late = await call(
            'agendar_contacto',
            {
              estacion: 'orbiteye-mx',
              norad_id: GEO.MEXSAT_3,
              inicio: after(26 * 60 + 30),
              fin: after(26 * 60 + 40),
            },
            operator.client,
          );
          expect(textOf(late)).toContain('La estación orbiteye-mx está en mantenimiento');
        } finally {
          await operator.close();
        }
      });

      it('refuses in the handler when the server is not in operator scope, even holding a credential', async () => {
        const system = createGroundstationSystem({ file: ':memory:', operatorToken: 'secret' });
        const groundstation = new GroundstationClient(
          inProcessTransport(() => system.handler),
          { operatorToken: 'secret' },
        );
        const context = {
          ...NO_CLIENT_FEATURES,
          deps: { groundstation, scope: 'consulta' as const },
          signal: new AbortController().signal,
          deadline: Date.now() + 30_000,
          logger: new Logger('test', 'emergency'),
          progress: async () => {},
          tools: new SessionTools(
            [],
            () => true,
            () => {},
          ),
        };
        try {
          await expect(
            programarMantenimiento.handler(
              {
                estacion: 'orbiteye-mx',
                inicio: after(60, Date.now()),
                fin: after(120, Date.now()),
                motivo: 'prueba',
              },
              context,
            ),
          ).rejects.toMatchObject({
            domain: true,
            message: expect.stringContaining('herramienta de operador'),
          });
          // Nothing reached the system.
          expect((await groundstation.getStation('orbiteye-mx')).upcoming_maintenance).toEqual([]);
        } finally {
          system.close();
        }
      });
    });

    describe('listar_mantenimientos', () => {
      it("lists orbiteye-cl's reference window with its id, fixed ends and reason", async () => {
        const result = await call('listar_mantenimientos', { estacion: 'orbiteye-cl' });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toEqual({
          estacion: 'orbiteye-cl',
          mantenimientos: [
            {
              mantenimiento_id: 'mt-00000000c1a0',
              estacion: 'orbiteye-cl',
              inicio: '2026-11-23T00:00:00.000Z',
              fin: '2027-01-15T00:00:00.000Z',
              motivo: 'Sustitución del LNA de banda S y revisión del rotor de elevación',
              origen: 'referencia',
            },
          ],
        });
        expect(textOf(result)).toContain(
          '- mt-00000000c1a0 (referencia): mantenimiento del 2026-11-23T00:00:00.000Z',
        );
      });

      it('says when a station has none, and answers an unknown station with a domain error', async () => {
        expect(textOf(await call('listar_mantenimientos', { estacion: 'orbiteye-es' }))).toBe(
          'orbiteye-es no tiene mantenimientos en vigor ni previstos.',
        );
        const unknown = await call('listar_mantenimientos', { estacion: 'nowhere' });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toContain("No existe la estación 'nowhere'");
      });
    });

    describe('cancelar_mantenimiento (operator scope)', () => {
      it('keeps orbiteye-cl in maintenance when a short window is added, and frees it once the reference one is cancelled', async () => {
        const operator = await connectEmbedded({ scope: 'operador', databaseUrl });
        try {
          const on = operator.client;
          const added = await call(
            'programar_mantenimiento',
            {
              estacion: 'orbiteye-cl',
              inicio: after(24 * 60),
              fin: after(48 * 60),
              motivo: 'Revisión final',
            },
            on,
          );
          const shortId = structured<{ mantenimiento_id: string }>(added).mantenimiento_id;
          const booking = {
            estacion: 'orbiteye-cl',
            norad_id: GEO.MEXSAT_3,
            inicio: after(60),
            fin: after(70),
          };
          expect(textOf(await call('agendar_contacto', booking, on))).toContain(
            'La estación orbiteye-cl está en mantenimiento',
          );
          const cancelled = await call('cancelar_mantenimiento', { mantenimiento_id: 'mt-00000000c1a0' }, on);
          expect(cancelled.isError).toBeFalsy();
          expect(structured<{ cancelado_en: string }>(cancelled).cancelado_en).toBe(
            '2026-12-01T10:30:00.000Z',
          );
          expect(textOf(cancelled)).toMatch(/^Mantenimiento mt-00000000c1a0 de orbiteye-cl cancelado/);
          const listed = structured<{ mantenimientos: Array<{ mantenimiento_id: string }> }>(
            await call('listar_mantenimientos', { estacion: 'orbiteye-cl' }, on),
          );
          expect(listed.mantenimientos.map((m) => m.mantenimiento_id)).toEqual([shortId]);
          expect((await call('agendar_contacto', booking, on)).isError).toBeFalsy();
          const again = await call('cancelar_mantenimiento', { mantenimiento_id: 'mt-00000000c1a0' }, on);
          expect(again.isError).toBe(true);
          expect(textOf(again)).toContain('ya estaba cancelado');
          const malformed = await call('cancelar_mantenimiento', { mantenimiento_id: 'c1a0' }, on);
          expect(malformed.isError).toBe(true);
          expect(textOf(malformed)).toContain("'mantenimiento_id'");
        } finally {
          await operator.close();
        }
      });

      it('is not offered outside operator scope: calling it is an unknown tool', async () => {
        await expect(
          client.callTool({
            name: 'cancelar_mantenimiento',
            arguments: { mantenimiento_id: 'mt-00000000c1a0' },
          }),
        ).rejects.toMatchObject({ code: -32602 });
      });
    });
  });
}
