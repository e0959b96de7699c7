import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { type Pass, SatdtClient } from '@code-cluster/shared/satdt';
import { rejectionOf } from '@code-cluster/testkit';
import { freshDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../http/serve.js';
import { SYSTEMS } from '../registry.js';
import { CATALOG_TLE } from '../satdt/catalog-data.js';
import { createSatdtSystem } from '../satdt/index.js';
import {
  type GroundstationSystem,
  type GroundstationSystemOptions,
  openGroundstationSystem,
  type PostgresGroundstationOptions,
} from './system.js';

const NOW = Date.parse('2026-12-01T10:30:00Z');
/**
 * Geostationary satellites always above the mask of the stations they serve (MEXSAT 3, MORELOS 3 and
 * GOES 17 over the Americas, METEOSAT-11 over Madrid): contacts with them are valid at any time, so the
 * tests of the booking rules do not depend on when passes fall.
 */
const MEXSAT_3 = 39035;
const MORELOS_3 = 40946;
const GOES_17 = 43226;
const METEOSAT_11 = 40732;
const ISS = 25544;

/** The passes satdt itself gives (the twin the ground station must agree with), from the pinned clock. */
async function passesOver(station: string, noradId = ISS, hours = 48): Promise<Pass[]> {
  const satdt = new SatdtClient(inProcessTransport(() => createSatdtSystem({ now: () => NOW }).handler));
  return (await satdt.passes(noradId, { station, from: at(0), hours })).passes;
}
const overlaps = (a: Pass, b: Pass) =>
  Date.parse(a.aos) < Date.parse(b.los) && Date.parse(b.aos) < Date.parse(a.los);
const OPERATOR_TOKEN = 'operator-secret-for-tests';
const at = (minutesFromNow: number) => new Date(NOW + minutesFromNow * 60_000).toISOString();

/** The same suite on each engine; the PostgreSQL leg is skipped (and says why) without one. */
const pg = await freshDatabase(
  'groundstation on PostgreSQL (packages/systems/src/groundstation/system.test.ts)',
);
afterAll(() => pg?.drop());
const ENGINES = [
  { engine: 'sqlite', available: true },
  { engine: 'postgres', available: pg !== undefined },
] as const;
type Engine = (typeof ENGINES)[number]['engine'];

let dir: string;
let clock: number;
let test = 0;
const systems: GroundstationSystem[] = [];

/** A world of the test's own: a SQLite file under its dir, or a schema of its own on PostgreSQL. */
function world(engine: Engine, name: string): GroundstationSystemOptions & PostgresGroundstationOptions {
  return engine === 'sqlite'
    ? { file: join(dir, `${name}.db`) }
    : { databaseUrl: pg!.url, databaseSchema: `gs_${test}_${name.replaceAll('/', '_')}` };
}

const refusal = (work: Promise<unknown>) => rejectionOf<SystemError>(work);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'code-groundstation-'));
  clock = NOW;
  test++;
});
afterEach(async () => {
  for (const system of systems.splice(0)) await system.close();
  rmSync(dir, { recursive: true, force: true });
});

for (const { engine, available } of ENGINES) {
  describe.skipIf(!available)(`the ground station on ${engine}`, () => {
    async function system(options: GroundstationSystemOptions, name: string) {
      const created = await openGroundstationSystem({ ...world(engine, name), ...options });
      systems.push(created);
      return created;
    }

    async function open(name = 'groundstation') {
      const opened = await system({ now: () => clock, operatorToken: OPERATOR_TOKEN }, name);
      const transport = inProcessTransport(() => opened.handler);
      return {
        system: opened,
        client: new GroundstationClient(transport),
        operator: new GroundstationClient(transport, { operatorToken: OPERATOR_TOKEN }),
      };
    }

    describe('stations', () => {
      it('lists the three reference stations with two antennas each; orbiteye-cl in maintenance now', async () => {
        const { client } = await open();
        const { stations } = await client.listStations();
        expect(stations.map((s) => [s.id, s.status])).toEqual([
          ['orbiteye-mx', 'operativa'],
          ['orbiteye-cl', 'mantenimiento'],
          ['orbiteye-es', 'operativa'],
        ]);
        for (const s of stations) expect(s.antennas.map((a) => a.band)).toHaveLength(2);
        const cl = stations[1]!;
        // The reference data's window, seeded with fixed ends when the store was created.
        expect(cl.maintenance).toMatchObject({
          id: 'mt-00000000c1a0',
          start: '2026-11-23T00:00:00.000Z',
          end: '2027-01-15T00:00:00.000Z',
          source: 'referencia',
        });
      });

      it("keeps orbiteye-cl's window where it is as the clock moves: a month later it still ends 2027-01-15", async () => {
        const { client } = await open();
        clock = Date.parse('2027-01-01T12:00:00Z');
        const cl = await client.getStation('orbiteye-cl');
        expect(cl.status).toBe('mantenimiento');
        expect(cl.maintenance).toMatchObject({
          start: '2026-11-23T00:00:00.000Z',
          end: '2027-01-15T00:00:00.000Z',
        });
        clock = Date.parse('2027-01-15T00:00:00Z');
        expect((await client.getStation('orbiteye-cl')).status).toBe('operativa');
      });

      it('reports health readings that are a function of the clock', async () => {
        const { client } = await open();
        const first = await client.getStation('orbiteye-es');
        const again = await client.getStation('orbiteye-es');
        expect(again.health).toEqual(first.health);
        clock += 3 * 3_600_000;
        const later = await client.getStation('orbiteye-es');
        expect(later.health.at).not.toBe(first.health.at);
        expect(later.health.outdoor_temp_c).not.toBe(first.health.outdoor_temp_c);
      });

      it('answers an unknown station with a 404 listing the stations', async () => {
        const { client } = await open();
        const error = await refusal(client.getStation('orbiteye-ar'));
        expect(error.status).toBe(404);
        expect(error.message).toContain('orbiteye-mx, orbiteye-cl, orbiteye-es');
      });
    });

    describe('booking a contact', () => {
      it('books a future contact on the first free antenna and shows it in the schedule', async () => {
        const { client } = await open();
        const contact = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        expect(contact).toMatchObject({
          station: 'orbiteye-mx',
          antenna: 'mx-s1',
          band: 'S',
          status: 'programado',
        });
        expect(contact.id).toMatch(/^ct-[0-9a-f]{12}$/);
        const schedule = await client.schedule('orbiteye-mx', { hours: 2 });
        expect(schedule.contacts.map((c) => c.id)).toEqual([contact.id]);
        const state = await client.getStation('orbiteye-mx');
        expect(state.next_contact?.id).toBe(contact.id);
      });

      it('moves to the next antenna when the first is taken, and refuses when all are', async () => {
        const { client } = await open();
        const first = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        const second = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MORELOS_3,
          start: at(65),
          end: at(75),
        });
        expect([first.antenna, second.antenna]).toEqual(['mx-s1', 'mx-x1']);
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: GOES_17, start: at(68), end: at(80) }),
        );
        expect(error.status).toBe(409);
        expect(error.message).toContain(`contacto ${first.id} en la antena mx-s1 (NORAD ${MEXSAT_3})`);
        expect(error.message).toContain(`contacto ${second.id} en la antena mx-x1`);
        expect(error.details).toMatchObject({
          conflicts: [
            { contact_id: first.id, antenna: 'mx-s1', start: at(60) },
            { contact_id: second.id, antenna: 'mx-x1' },
          ],
        });
      });

      it('refuses an overlap on a requested antenna, naming the conflicting contact and its times', async () => {
        const { client } = await open();
        const taken = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
          antenna: 'mx-x1',
        });
        const error = await refusal(
          client.bookContact({
            station: 'orbiteye-mx',
            norad_id: MORELOS_3,
            start: at(69),
            end: at(90),
            antenna: 'mx-x1',
          }),
        );
        expect(error.status).toBe(409);
        expect(error.message).toBe(
          `La antena mx-x1 de orbiteye-mx ya está reservada en ese intervalo: contacto ${taken.id} en la antena ` +
            `mx-x1 (NORAD ${MEXSAT_3}) de 2026-12-01T11:30:00.000Z a 2026-12-01T11:40:00.000Z. Elige otro intervalo, otra ` +
            'antena o deja que el sistema elija una libre.',
        );
        // Back-to-back is not an overlap.
        const next = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MORELOS_3,
          start: at(70),
          end: at(90),
          antenna: 'mx-x1',
        });
        expect(next.antenna).toBe('mx-x1');
      });

      it('refuses orbiteye-cl while in maintenance, with the window, and accepts it after the window', async () => {
        const { client } = await open();
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-cl', norad_id: MEXSAT_3, start: at(60), end: at(70) }),
        );
        expect(error.status).toBe(409);
        expect(error.message).toMatch(
          /^La estación orbiteye-cl está en mantenimiento del 2026-11-23T00:00:00\.000Z al 2027-01-15T00:00:00\.000Z \(Sustitución del LNA/,
        );
        expect(error.message).toContain('orbiteye-mx, orbiteye-es');
        // A month ahead, still inside the fixed window: refused too (it used to move with the clock).
        const later = await refusal(
          client.bookContact({
            station: 'orbiteye-cl',
            norad_id: MEXSAT_3,
            start: '2027-01-05T00:00:00Z',
            end: '2027-01-05T00:10:00Z',
          }),
        );
        expect(later.message).toContain('La estación orbiteye-cl está en mantenimiento');
        const after = await client.bookContact({
          station: 'orbiteye-cl',
          norad_id: MEXSAT_3,
          start: '2027-01-15T00:00:00Z',
          end: '2027-01-15T00:10:00Z',
        });
        expect(after.station).toBe('orbiteye-cl');
      });

      it.each([
        ['fin before inicio', { start: at(70), end: at(60) }, 422, /debe ser posterior a su inicio/],
        ['fin equal to inicio', { start: at(60), end: at(60) }, 422, /debe ser posterior a su inicio/],
        ['a window in the past', { start: at(-10), end: at(10) }, 422, /empieza en el pasado/],
        ['a window starting now', { start: at(0), end: at(10) }, 422, /empieza en el pasado/],
        ['more than 4 h', { start: at(60), end: at(60 + 241) }, 422, /dura 241 min y el máximo es 240 min/],
        [
          'less than 1 min',
          { start: at(60), end: new Date(NOW + 60 * 60_000 + 59_000).toISOString() },
          422,
          /mínimo es 1 min/,
        ],
        [
          'an antenna of another station',
          { start: at(60), end: at(70), antenna: 'es-s1' },
          422,
          /no pertenece a orbiteye-mx.*mx-s1 \(banda S\)/,
        ],
        ['a zero norad_id', { start: at(60), end: at(70), norad_id: 0 }, 400, /norad_id/],
        ['a fractional norad_id', { start: at(60), end: at(70), norad_id: 1.5 }, 400, /norad_id/],
        ['a time with an offset', { start: '2026-12-01T12:00:00+02:00', end: at(70) }, 400, /start/],
      ])('refuses %s', async (_label, override, status, message) => {
        const { client } = await open();
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: MEXSAT_3, ...override } as never),
        );
        expect(error.status).toBe(status);
        expect(error.message).toMatch(message);
      });

      it('accepts exactly 4 h and exactly 1 min', async () => {
        const { client } = await open();
        await expect(
          client.bookContact({ station: 'orbiteye-mx', norad_id: MEXSAT_3, start: at(60), end: at(300) }),
        ).resolves.toMatchObject({ status: 'programado' });
        await expect(
          client.bookContact({ station: 'orbiteye-mx', norad_id: MEXSAT_3, start: at(400), end: at(401) }),
        ).resolves.toMatchObject({ status: 'programado' });
      });

      it('refuses an unknown station with a 404', async () => {
        const { client } = await open();
        const error = await refusal(
          client.bookContact({ station: 'nowhere', norad_id: 1, start: at(60), end: at(70) }),
        );
        expect(error.status).toBe(404);
      });
    });

    describe('cancelling a contact', () => {
      it('cancels a future contact, frees its antenna, and refuses a second cancel with 409', async () => {
        const { client } = await open();
        const contact = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        const cancelled = await client.cancelContact(contact.id);
        expect(cancelled).toMatchObject({
          id: contact.id,
          status: 'cancelado',
          cancelled_at: at(0),
        });
        expect((await client.schedule('orbiteye-mx')).contacts).toEqual([]);
        const again = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MORELOS_3,
          start: at(60),
          end: at(70),
        });
        expect(again.antenna).toBe('mx-s1');
        const error = await refusal(client.cancelContact(contact.id));
        expect(error.status).toBe(409);
        expect(error.message).toContain('ya estaba cancelado');
      });

      it('answers an unknown contact with 404', async () => {
        const { client } = await open();
        const error = await refusal(client.cancelContact('ct-000000000000'));
        expect(error.status).toBe(404);
        expect(error.message).toContain("No existe el contacto 'ct-000000000000'");
      });

      it('refuses to cancel a contact in progress or past with 409', async () => {
        const { client } = await open();
        const contact = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        clock = NOW + 65 * 60_000;
        expect((await client.getContact(contact.id)).status).toBe('en_curso');
        expect((await refusal(client.cancelContact(contact.id))).message).toContain('ya está en curso');
        clock = NOW + 80 * 60_000;
        expect((await client.getContact(contact.id)).status).toBe('completado');
        const error = await refusal(client.cancelContact(contact.id));
        expect(error.status).toBe(409);
        expect(error.message).toContain('ya terminó');
      });
    });

    describe('maintenance programmed by an operator', () => {
      const window = { start: at(24 * 60), end: at(26 * 60), reason: 'Cambio del rodamiento de azimut' };

      it('refuses without the operator credential (403), whatever else the request says', async () => {
        const { client, system } = await open();
        expect((await refusal(client.programMaintenance('orbiteye-mx', window))).status).toBe(403);
        const wrong = new GroundstationClient(
          inProcessTransport(() => system.handler),
          { operatorToken: 'guess' },
        );
        const error = await refusal(wrong.programMaintenance('orbiteye-mx', window));
        expect(error.status).toBe(403);
        expect(error.message).toContain('credencial de operador');
        // An unknown station is not revealed before the credential is checked.
        expect((await refusal(wrong.programMaintenance('nowhere', window))).status).toBe(403);
      });

      it('refuses every operator action when the system has no operator credential configured', async () => {
        const bare = await system({ now: () => clock }, 'x');
        const operator = new GroundstationClient(
          inProcessTransport(() => bare.handler),
          { operatorToken: 'anything' },
        );
        expect((await refusal(operator.programMaintenance('orbiteye-mx', window))).status).toBe(403);
      });

      it('programs windows that add up: overlapping ones are kept, and a booking inside any is refused', async () => {
        const { client, operator } = await open();
        const programmed = await operator.programMaintenance('orbiteye-mx', window);
        expect(programmed).toMatchObject({
          station: 'orbiteye-mx',
          source: 'operador',
          reason: window.reason,
        });
        expect(programmed.id).toMatch(/^mt-[0-9a-f]{12}$/);
        const longer = await operator.programMaintenance('orbiteye-mx', {
          start: at(25 * 60),
          end: at(30 * 60),
          reason: 'Recalibración del apuntamiento',
        });
        const { maintenance } = await client.listMaintenance('orbiteye-mx');
        expect(maintenance.map((w) => w.id)).toEqual([programmed.id, longer.id]);
        for (const minute of [24 * 60 + 30, 29 * 60]) {
          const error = await refusal(
            client.bookContact({
              station: 'orbiteye-mx',
              norad_id: MEXSAT_3,
              start: at(minute),
              end: at(minute + 10),
            }),
          );
          expect(error.status).toBe(409);
          expect(error.message).toContain('La estación orbiteye-mx está en mantenimiento');
          // The station is free only once both windows are over.
          expect(error.message).toContain(`un inicio a partir del ${at(30 * 60)}`);
        }
        // The same window twice is a retried call, not a new window.
        const again = await refusal(operator.programMaintenance('orbiteye-mx', window));
        expect(again.status).toBe(409);
        expect(again.message).toContain(programmed.id);
        expect((await client.getStation('orbiteye-mx')).upcoming_maintenance).toHaveLength(2);
      });

      it('refuses a window over booked contacts, naming them', async () => {
        const { client, operator } = await open();
        const contact = await client.bookContact({
          station: 'orbiteye-es',
          norad_id: METEOSAT_11,
          start: at(24 * 60 + 30),
          end: at(24 * 60 + 40),
        });
        const error = await refusal(operator.programMaintenance('orbiteye-es', window));
        expect(error.status).toBe(409);
        expect(error.message).toContain(`contacto ${contact.id} en la antena es-s1`);
      });

      it('refuses windows that end in the past or run backwards', async () => {
        const { operator } = await open();
        expect(
          (
            await refusal(
              operator.programMaintenance('orbiteye-mx', { ...window, start: at(-120), end: at(-60) }),
            )
          ).status,
        ).toBe(422);
        expect(
          (await refusal(operator.programMaintenance('orbiteye-mx', { ...window, end: window.start })))
            .status,
        ).toBe(422);
      });

      it("keeps orbiteye-cl's standing window when an operator adds a short one", async () => {
        const { client, operator } = await open();
        const short = await operator.programMaintenance('orbiteye-cl', {
          ...window,
          reason: 'Revisión final del rotor',
        });
        const cl = await client.getStation('orbiteye-cl');
        expect(cl.status).toBe('mantenimiento');
        expect(cl.maintenance?.id).toBe('mt-00000000c1a0');
        expect(cl.upcoming_maintenance.map((w) => w.id)).toEqual(['mt-00000000c1a0', short.id]);
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-cl', norad_id: MEXSAT_3, start: at(60), end: at(70) }),
        );
        expect(error.message).toContain('La estación orbiteye-cl está en mantenimiento');
      });
    });

    describe('listing and cancelling maintenance', () => {
      const window = { start: at(24 * 60), end: at(26 * 60), reason: 'Cambio del rodamiento de azimut' };

      it('lists the windows in force or to come, the reference one included, and none of another station', async () => {
        const { client, operator } = await open();
        const programmed = await operator.programMaintenance('orbiteye-cl', window);
        await operator.programMaintenance('orbiteye-es', window);
        const list = await client.listMaintenance('orbiteye-cl');
        expect(list.station).toBe('orbiteye-cl');
        expect(list.maintenance.map((w) => [w.id, w.source])).toEqual([
          ['mt-00000000c1a0', 'referencia'],
          [programmed.id, 'operador'],
        ]);
        expect((await client.listMaintenance('orbiteye-mx')).maintenance).toEqual([]);
        expect((await refusal(client.listMaintenance('nowhere'))).status).toBe(404);
      });

      it('cancels a window: bookings inside it are accepted again, and the list no longer shows it', async () => {
        const { client, operator } = await open();
        const cancelled = await operator.cancelMaintenance('mt-00000000c1a0');
        expect(cancelled).toMatchObject({ id: 'mt-00000000c1a0', cancelled_at: at(0) });
        expect((await client.getStation('orbiteye-cl')).status).toBe('operativa');
        expect((await client.listMaintenance('orbiteye-cl')).maintenance).toEqual([]);
        const booked = await client.bookContact({
          station: 'orbiteye-cl',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        expect(booked.antenna).toBe('cl-s1');
        const twice = await refusal(operator.cancelMaintenance('mt-00000000c1a0'));
        expect(twice.status).toBe(409);
        expect(twice.message).toContain('ya estaba cancelado');
      });

      it('refuses an unknown window (404), one already over (409), and anyone without the credential (403)', async () => {
        const { client, operator } = await open();
        const unknown = await refusal(operator.cancelMaintenance('mt-000000000000'));
        expect(unknown.status).toBe(404);
        expect(unknown.message).toContain("No existe el mantenimiento 'mt-000000000000'");
        const programmed = await operator.programMaintenance('orbiteye-es', window);
        expect((await refusal(client.cancelMaintenance(programmed.id))).status).toBe(403);
        clock = NOW + 27 * 3_600_000;
        const over = await refusal(operator.cancelMaintenance(programmed.id));
        expect(over.status).toBe(409);
        expect(over.message).toContain('ya terminó');
      });
    });

    describe('persistence', () => {
      it('keeps contacts, cancellations and maintenance across a reopen of the same file or schema', async () => {
        const first = await open('nested/groundstation');
        const kept = await first.client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        const dropped = await first.client.bookContact({
          station: 'orbiteye-es',
          norad_id: METEOSAT_11,
          start: at(60),
          end: at(70),
        });
        await first.client.cancelContact(dropped.id);
        await first.operator.programMaintenance('orbiteye-es', {
          start: at(600),
          end: at(700),
          reason: 'Pintura del radomo',
        });
        await first.operator.cancelMaintenance('mt-00000000c1a0');
        systems.splice(systems.indexOf(first.system), 1);
        await first.system.close();

        const second = await open('nested/groundstation');
        expect((await second.client.getContact(kept.id)).status).toBe('programado');
        expect((await second.client.getContact(dropped.id)).status).toBe('cancelado');
        expect((await second.client.schedule('orbiteye-es', { hours: 24 })).maintenance).toHaveLength(1);
        // The reference window is seeded once, when the store is created: a cancelled one stays cancelled.
        expect((await second.client.listMaintenance('orbiteye-cl')).maintenance).toEqual([]);
        // The reopened book still enforces the overlap rule against what it loaded.
        const error = await refusal(
          second.client.bookContact({
            station: 'orbiteye-mx',
            norad_id: MORELOS_3,
            start: at(65),
            end: at(66),
            antenna: 'mx-s1',
          }),
        );
        expect(error.message).toContain(kept.id);
      });
    });

    describe('REST surface', () => {
      it('answers problem+json for unknown routes, wrong methods and bad bodies', async () => {
        const { system } = await open();
        const call = (method: 'GET' | 'POST' | 'PUT', path: string, body?: string) =>
          system.handler({ method, path, query: new URLSearchParams(), headers: {}, body });
        const missing = await call('GET', '/v1/nothing');
        expect(missing.status).toBe(404);
        expect(missing.headers['content-type']).toBe('application/problem+json');
        expect((await call('PUT', '/v1/contacts')).status).toBe(405);
        const bad = await call('POST', '/v1/contacts', 'not json');
        expect(bad.status).toBe(400);
        const extra = await call(
          'POST',
          '/v1/contacts',
          JSON.stringify({ station: 'orbiteye-mx', norad_id: 1, start: at(60), end: at(70), x: 1 }),
        );
        expect(extra.status).toBe(400);
      });

      it('checks the operator credential before the body: a bad body without it is 403, not 400', async () => {
        const { system } = await open();
        const response = await system.handler({
          method: 'POST',
          path: '/v1/stations/orbiteye-mx/maintenance',
          query: new URLSearchParams(),
          headers: {},
          body: JSON.stringify({ start: 'ayer', operator_token: 'guess' }),
        });
        expect(response.status).toBe(403);
        expect(response.body).not.toContain('start');
      });

      it('never echoes the operator credential', async () => {
        const { system } = await open();
        const response = await system.handler({
          method: 'POST',
          path: '/v1/stations/orbiteye-mx/maintenance',
          query: new URLSearchParams(),
          headers: {},
          body: JSON.stringify({ start: at(60), end: at(70), reason: 'x', operator_token: OPERATOR_TOKEN }),
        });
        expect(response.status).toBe(400);
        expect(response.body).not.toContain(OPERATOR_TOKEN);
      });
    });

    describe('booking checks the satellite', () => {
      it('books a pass exactly as proximos_pases gives it, and a window covering only its end', async () => {
        const { client } = await open();
        const [first, second] = await passesOver('orbiteye-mx');
        const whole = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: ISS,
          start: first!.aos,
          end: first!.los,
        });
        expect(whole.status).toBe('programado');
        const tail = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: ISS,
          start: new Date(Date.parse(second!.los) - 60_000).toISOString(),
          end: new Date(Date.parse(second!.los) + 30 * 60_000).toISOString(),
        });
        expect(tail.status).toBe('programado');
      });

      it('refuses ISS over orbiteye-mx while it is visible only from orbiteye-es, naming the next passes', async () => {
        const { client } = await open();
        const mx = await passesOver('orbiteye-mx');
        const cl = await passesOver('orbiteye-cl');
        const onlyEs = (await passesOver('orbiteye-es')).find(
          (p) => !mx.some((q) => overlaps(p, q)) && !cl.some((q) => overlaps(p, q)),
        )!;
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: ISS, start: onlyEs.aos, end: onlyEs.los }),
        );
        expect(error.status).toBe(409);
        expect(error.message).toMatch(
          /^ISS \(ZARYA\) \(NORAD 25544\) no está sobre la máscara de elevación de orbiteye-mx \(10°\) entre /,
        );
        const next = mx.filter((p) => Date.parse(p.aos) >= Date.parse(onlyEs.los)).slice(0, 3);
        expect(next).toHaveLength(3);
        // The same passes (to the root finder's millisecond: the search starts elsewhere), in the text and the details.
        const named = (error.details as { next_passes: Array<{ aos: string; los: string }> }).next_passes;
        expect(named).toHaveLength(3);
        for (const [k, p] of named.entries()) {
          expect(Math.abs(Date.parse(p.aos) - Date.parse(next[k]!.aos))).toBeLessThanOrEqual(2);
          expect(Math.abs(Date.parse(p.los) - Date.parse(next[k]!.los))).toBeLessThanOrEqual(2);
          expect(error.message).toContain(`AOS ${p.aos} → LOS ${p.los}`);
        }
        expect(error.message).toContain('En esa ventana sí es visible desde orbiteye-es.');
        expect(error.details).toMatchObject({ visible_from: ['orbiteye-es'] });
        // And nothing was booked.
        expect((await client.schedule('orbiteye-mx', { hours: 72 })).contacts).toEqual([]);
      });

      it('refuses a geostationary satellite that never rises over the station', async () => {
        const { client } = await open();
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: METEOSAT_11, start: at(60), end: at(70) }),
        );
        expect(error.status).toBe(409);
        expect(error.message).toContain('es geosíncrono y nunca sube sobre la máscara de orbiteye-mx');
        expect(error.message).toContain('En esa ventana sí es visible desde orbiteye-es.');
      });

      it('refuses a satellite no catalog knows, and a retired one', async () => {
        const { client } = await open();
        const unknown = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: 99999, start: at(60), end: at(70) }),
        );
        expect(unknown.status).toBe(422);
        expect(unknown.message).toContain('No hay ningún satélite con NORAD 99999 en el catálogo');
        const retired = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: 25338, start: at(60), end: at(70) }),
        );
        expect(retired.status).toBe(422);
        expect(retired.message).toMatch(/^NOAA 15 \(NORAD 25338\) está retirado: ya no opera/);
      });

      it('refuses the same satellite twice at once on the two antennas of a station', async () => {
        const { client } = await open();
        const first = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(60),
          end: at(70),
        });
        const error = await refusal(
          client.bookContact({
            station: 'orbiteye-mx',
            norad_id: MEXSAT_3,
            start: at(65),
            end: at(80),
            antenna: 'mx-x1',
          }),
        );
        expect(error.status).toBe(409);
        expect(error.message).toContain(`NORAD ${MEXSAT_3} ya tiene un contacto en orbiteye-mx`);
        expect(error.message).toContain(first.id);
        // Back to back on the other antenna is no overlap.
        const next = await client.bookContact({
          station: 'orbiteye-mx',
          norad_id: MEXSAT_3,
          start: at(70),
          end: at(80),
          antenna: 'mx-x1',
        });
        expect(next.antenna).toBe('mx-x1');
      });
    });

    describe('booking against a satdt service (GROUNDSTATION_SATDT_API_URL)', () => {
      it('is how the HTTP service (code-systems groundstation) is configured', async () => {
        const lines = CATALOG_TLE.split('\n');
        const at39035 = lines.findIndex((l) => l.startsWith('1 39035'));
        const catalogTle = [...lines.slice(0, at39035 - 1), ...lines.slice(at39035 + 2)].join('\n');
        const satdt = await serveHttp(createSatdtSystem({ catalogTle }).handler, {
          port: 0,
          token: 'satdt-token',
        });
        const saved = { ...process.env };
        Object.assign(process.env, {
          CODE_CLUSTER_DATA_DIR: dir,
          GROUNDSTATION_SATDT_API_URL: satdt.url,
          GROUNDSTATION_SATDT_API_TOKEN: 'satdt-token',
          ...(engine === 'postgres' ? { GROUNDSTATION_DATABASE_URL: pg!.url } : {}),
        });
        try {
          const handler = await SYSTEMS.groundstation.create();
          const start = new Date(Date.now() + 3_600_000).toISOString();
          const end = new Date(Date.now() + 3_900_000).toISOString();
          const response = await handler({
            method: 'POST',
            path: '/v1/contacts',
            query: new URLSearchParams(),
            headers: {},
            body: JSON.stringify({ station: 'orbiteye-mx', norad_id: MEXSAT_3, start, end }),
          });
          expect(response.status).toBe(422);
          expect(response.body).toContain(`No hay ningún satélite con NORAD ${MEXSAT_3}`);
        } finally {
          process.env = saved;
          await satdt.close();
        }
      });

      it('asks that service, whose catalog is the one that counts, and answers 503 when it is down', async () => {
        // A satdt service whose catalog lacks MEXSAT 3: the embedded twin would accept it, this one must not.
        const lines = CATALOG_TLE.split('\n');
        const at39035 = lines.findIndex((l) => l.startsWith('1 39035'));
        const catalogTle = [...lines.slice(0, at39035 - 1), ...lines.slice(at39035 + 2)].join('\n');
        const satdt = await serveHttp(createSatdtSystem({ catalogTle, now: () => clock }).handler, {
          port: 0,
        });
        try {
          const remote = await system({ now: () => clock, satdt: { apiUrl: satdt.url } }, 'remote');
          const client = new GroundstationClient(inProcessTransport(() => remote.handler));
          const error = await refusal(
            client.bookContact({ station: 'orbiteye-mx', norad_id: MEXSAT_3, start: at(60), end: at(70) }),
          );
          expect(error.status).toBe(422);
          expect(error.message).toContain(`No hay ningún satélite con NORAD ${MEXSAT_3}`);
          const booked = await client.bookContact({
            station: 'orbiteye-mx',
            norad_id: MORELOS_3,
            start: at(60),
            end: at(70),
          });
          expect(booked.status).toBe('programado');
        } finally {
          await satdt.close();
        }
        const down = await system({ now: () => clock, satdt: { apiUrl: satdt.url } }, 'down');
        const client = new GroundstationClient(
          inProcessTransport(() => down.handler),
          { retries: 0 },
        );
        const error = await refusal(
          client.bookContact({ station: 'orbiteye-mx', norad_id: MORELOS_3, start: at(60), end: at(70) }),
        );
        expect(error.kind).toBe('unavailable');
      });
    });
  });
}
