import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, type SystemError } from '@code-cluster/shared';
import { GroundstationClient } from '@code-cluster/shared/groundstation';
import { rejectionOf } from '@code-cluster/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGroundstationSystem, type GroundstationSystem } from './system.js';

const NOW = Date.parse('2026-06-27T10:30:00Z');
const OPERATOR_TOKEN = 'operator-secret-for-tests';
const at = (minutesFromNow: number) => new Date(NOW + minutesFromNow * 60_000).toISOString();

let dir: string;
let clock: number;
const systems: GroundstationSystem[] = [];

function open(file = join(dir, 'groundstation.db')) {
  const system = createGroundstationSystem({ file, now: () => clock, operatorToken: OPERATOR_TOKEN });
  systems.push(system);
  const transport = inProcessTransport(() => system.handler);
  return {
    system,
    client: new GroundstationClient(transport),
    operator: new GroundstationClient(transport, { operatorToken: OPERATOR_TOKEN }),
  };
}

const refusal = (work: Promise<unknown>) => rejectionOf<SystemError>(work);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'code-groundstation-'));
  clock = NOW;
});
afterEach(() => {
  for (const system of systems.splice(0)) system.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('stations', () => {
  it('lists the three reference stations with two antennas each; orbiteye-cl in maintenance now', async () => {
    const { client } = open();
    const { stations } = await client.listStations();
    expect(stations.map((s) => [s.id, s.status])).toEqual([
      ['orbiteye-mx', 'operativa'],
      ['orbiteye-cl', 'mantenimiento'],
      ['orbiteye-es', 'operativa'],
    ]);
    for (const s of stations) expect(s.antennas.map((a) => a.band)).toHaveLength(2);
    const cl = stations[1]!;
    // The standing window runs from the start of the current UTC day for 30 days.
    expect(cl.maintenance).toMatchObject({
      start: '2026-06-27T00:00:00Z',
      end: '2026-07-27T00:00:00Z',
      source: 'referencia',
    });
  });

  it('keeps orbiteye-cl in maintenance whatever the date', async () => {
    const { client } = open();
    clock = Date.parse('2031-01-15T23:59:00Z');
    const cl = await client.getStation('orbiteye-cl');
    expect(cl.status).toBe('mantenimiento');
    expect(cl.maintenance?.start).toBe('2031-01-15T00:00:00Z');
  });

  it('reports health readings that are a function of the clock', async () => {
    const { client } = open();
    const first = await client.getStation('orbiteye-es');
    const again = await client.getStation('orbiteye-es');
    expect(again.health).toEqual(first.health);
    clock += 3 * 3_600_000;
    const later = await client.getStation('orbiteye-es');
    expect(later.health.at).not.toBe(first.health.at);
    expect(later.health.outdoor_temp_c).not.toBe(first.health.outdoor_temp_c);
  });

  it('answers an unknown station with a 404 listing the stations', async () => {
    const { client } = open();
    const error = await refusal(client.getStation('orbiteye-ar'));
    expect(error.status).toBe(404);
    expect(error.message).toContain('orbiteye-mx, orbiteye-cl, orbiteye-es');
  });
});

describe('booking a contact', () => {
  it('books a future contact on the first free antenna and shows it in the schedule', async () => {
    const { client } = open();
    const contact = await client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 25544,
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
    const { client } = open();
    const first = await client.bookContact({
      station: 'orbiteye-es',
      norad_id: 25544,
      start: at(60),
      end: at(70),
    });
    const second = await client.bookContact({
      station: 'orbiteye-es',
      norad_id: 43013,
      start: at(65),
      end: at(75),
    });
    expect([first.antenna, second.antenna]).toEqual(['es-s1', 'es-x1']);
    const error = await refusal(
      client.bookContact({ station: 'orbiteye-es', norad_id: 33591, start: at(68), end: at(80) }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toContain(`contacto ${first.id} en la antena es-s1 (NORAD 25544)`);
    expect(error.message).toContain(`contacto ${second.id} en la antena es-x1`);
    expect(error.details).toMatchObject({
      conflicts: [
        { contact_id: first.id, antenna: 'es-s1', start: at(60).replace('.000Z', 'Z') },
        { contact_id: second.id, antenna: 'es-x1' },
      ],
    });
  });

  it('refuses an overlap on a requested antenna, naming the conflicting contact and its times', async () => {
    const { client } = open();
    const taken = await client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 25544,
      start: at(60),
      end: at(70),
      antenna: 'mx-x1',
    });
    const error = await refusal(
      client.bookContact({
        station: 'orbiteye-mx',
        norad_id: 43013,
        start: at(69),
        end: at(90),
        antenna: 'mx-x1',
      }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toBe(
      `La antena mx-x1 de orbiteye-mx ya está reservada en ese intervalo: contacto ${taken.id} en la antena ` +
        'mx-x1 (NORAD 25544) de 2026-06-27T11:30:00Z a 2026-06-27T11:40:00Z. Elige otro intervalo, otra ' +
        'antena o deja que el sistema elija una libre.',
    );
    // Back-to-back is not an overlap.
    const next = await client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 43013,
      start: at(70),
      end: at(90),
      antenna: 'mx-x1',
    });
    expect(next.antenna).toBe('mx-x1');
  });

  it('refuses orbiteye-cl while in maintenance, with the window, and accepts it after the window', async () => {
    const { client } = open();
    const error = await refusal(
      client.bookContact({ station: 'orbiteye-cl', norad_id: 25544, start: at(60), end: at(70) }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toMatch(
      /^La estación orbiteye-cl está en mantenimiento del 2026-06-27T00:00:00Z al 2026-07-27T00:00:00Z \(Sustitución del LNA/,
    );
    expect(error.message).toContain('orbiteye-mx, orbiteye-es');
    const after = await client.bookContact({
      station: 'orbiteye-cl',
      norad_id: 25544,
      start: '2026-07-27T00:00:00Z',
      end: '2026-07-27T00:10:00Z',
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
    ['a time with an offset', { start: '2026-06-27T12:00:00+02:00', end: at(70) }, 400, /start/],
  ])('refuses %s', async (_label, override, status, message) => {
    const { client } = open();
    const error = await refusal(
      client.bookContact({ station: 'orbiteye-mx', norad_id: 25544, ...override } as never),
    );
    expect(error.status).toBe(status);
    expect(error.message).toMatch(message);
  });

  it('accepts exactly 4 h and exactly 1 min', async () => {
    const { client } = open();
    await expect(
      client.bookContact({ station: 'orbiteye-mx', norad_id: 25544, start: at(60), end: at(300) }),
    ).resolves.toMatchObject({ status: 'programado' });
    await expect(
      client.bookContact({ station: 'orbiteye-mx', norad_id: 25544, start: at(400), end: at(401) }),
    ).resolves.toMatchObject({ status: 'programado' });
  });

  it('refuses an unknown station with a 404', async () => {
    const { client } = open();
    const error = await refusal(
      client.bookContact({ station: 'nowhere', norad_id: 1, start: at(60), end: at(70) }),
    );
    expect(error.status).toBe(404);
  });
});

describe('cancelling a contact', () => {
  it('cancels a future contact, frees its antenna, and refuses a second cancel with 409', async () => {
    const { client } = open();
    const contact = await client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 25544,
      start: at(60),
      end: at(70),
    });
    const cancelled = await client.cancelContact(contact.id);
    expect(cancelled).toMatchObject({
      id: contact.id,
      status: 'cancelado',
      cancelled_at: at(0).replace('.000Z', 'Z'),
    });
    expect((await client.schedule('orbiteye-mx')).contacts).toEqual([]);
    const again = await client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 43013,
      start: at(60),
      end: at(70),
    });
    expect(again.antenna).toBe('mx-s1');
    const error = await refusal(client.cancelContact(contact.id));
    expect(error.status).toBe(409);
    expect(error.message).toContain('ya estaba cancelado');
  });

  it('answers an unknown contact with 404', async () => {
    const { client } = open();
    const error = await refusal(client.cancelContact('ct-000000000000'));
    expect(error.status).toBe(404);
    expect(error.message).toContain("No existe el contacto 'ct-000000000000'");
  });

  it('refuses to cancel a contact in progress or past with 409', async () => {
    const { client } = open();
    const contact = await client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 25544,
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
    const { client, system } = open();
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
    const system = createGroundstationSystem({ file: join(dir, 'x.db'), now: () => clock });
    systems.push(system);
    const operator = new GroundstationClient(
      inProcessTransport(() => system.handler),
      { operatorToken: 'anything' },
    );
    expect((await refusal(operator.programMaintenance('orbiteye-mx', window))).status).toBe(403);
  });

  it('programs a window that then blocks bookings, and refuses overlapping windows', async () => {
    const { client, operator } = open();
    const programmed = await operator.programMaintenance('orbiteye-mx', window);
    expect(programmed).toMatchObject({ station: 'orbiteye-mx', source: 'operador', reason: window.reason });
    expect(programmed.id).toMatch(/^mt-[0-9a-f]{12}$/);
    const error = await refusal(
      client.bookContact({
        station: 'orbiteye-mx',
        norad_id: 25544,
        start: at(25 * 60),
        end: at(25 * 60 + 10),
      }),
    );
    expect(error.status).toBe(409);
    expect(error.message).toContain('La estación orbiteye-mx está en mantenimiento');
    const clash = await refusal(
      operator.programMaintenance('orbiteye-mx', { ...window, start: at(25 * 60), end: at(30 * 60) }),
    );
    expect(clash.status).toBe(409);
    expect(clash.message).toContain(programmed.id);
    expect((await client.getStation('orbiteye-mx')).upcoming_maintenance).toHaveLength(1);
  });

  it('refuses a window over booked contacts, naming them', async () => {
    const { client, operator } = open();
    const contact = await client.bookContact({
      station: 'orbiteye-es',
      norad_id: 25544,
      start: at(24 * 60 + 30),
      end: at(24 * 60 + 40),
    });
    const error = await refusal(operator.programMaintenance('orbiteye-es', window));
    expect(error.status).toBe(409);
    expect(error.message).toContain(`contacto ${contact.id} en la antena es-s1`);
  });

  it('refuses windows that end in the past or run backwards', async () => {
    const { operator } = open();
    expect(
      (
        await refusal(
          operator.programMaintenance('orbiteye-mx', { ...window, start: at(-120), end: at(-60) }),
        )
      ).status,
    ).toBe(422);
    expect(
      (await refusal(operator.programMaintenance('orbiteye-mx', { ...window, end: window.start }))).status,
    ).toBe(422);
  });

  it("replaces orbiteye-cl's standing window once an operator plans the station's maintenance", async () => {
    const { client, operator } = open();
    await operator.programMaintenance('orbiteye-cl', { ...window, reason: 'Revisión final del rotor' });
    expect((await client.getStation('orbiteye-cl')).status).toBe('operativa');
    const booked = await client.bookContact({
      station: 'orbiteye-cl',
      norad_id: 25544,
      start: at(60),
      end: at(70),
    });
    expect(booked.antenna).toBe('cl-s1');
  });
});

describe('persistence', () => {
  it('keeps contacts, cancellations and maintenance across a reopen of the same SQLite file', async () => {
    const file = join(dir, 'nested', 'groundstation.db');
    const first = open(file);
    const kept = await first.client.bookContact({
      station: 'orbiteye-mx',
      norad_id: 25544,
      start: at(60),
      end: at(70),
    });
    const dropped = await first.client.bookContact({
      station: 'orbiteye-es',
      norad_id: 25544,
      start: at(60),
      end: at(70),
    });
    await first.client.cancelContact(dropped.id);
    await first.operator.programMaintenance('orbiteye-es', {
      start: at(600),
      end: at(700),
      reason: 'Pintura del radomo',
    });
    first.system.close();
    systems.splice(systems.indexOf(first.system), 1);

    const second = open(file);
    expect((await second.client.getContact(kept.id)).status).toBe('programado');
    expect((await second.client.getContact(dropped.id)).status).toBe('cancelado');
    expect((await second.client.schedule('orbiteye-es', { hours: 24 })).maintenance).toHaveLength(1);
    // The reopened book still enforces the overlap rule against what it loaded.
    const error = await refusal(
      second.client.bookContact({
        station: 'orbiteye-mx',
        norad_id: 1,
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
    const { system } = open();
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

  it('never echoes the operator credential', async () => {
    const { system } = open();
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
