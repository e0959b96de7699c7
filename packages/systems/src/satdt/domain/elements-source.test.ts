import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog, SHIPPED_SOURCE, tleChecksum } from './catalog.js';
import { ElementStore } from './element-store.js';
import { epochMs } from './elements.js';
import { ElementSourceError, parseElementSets } from './elements-source.js';
import { findPasses, type Station } from './passes.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', '..', '..');
const fixture = (name: string) => readFileSync(join(pkg, 'test', 'fixtures', 'satdt', name), 'utf8');
const shippedText = readFileSync(join(pkg, 'data', 'satdt', 'catalog.tle'), 'utf8');
const ommText = fixture('elements/reference-sets.omm.json');
const twoLineText = fixture('elements/reference-sets.tle');
const ommXml = fixture('elements/reference-sets.omm.xml');

const NOW = Date.parse('2026-06-30T00:00:00Z');
const FILE = { origin: 'archivo', location: '/tmp/elements', loadedAtMs: NOW } as const;
const parse = (text: string, now = NOW) => parseElementSets(text, FILE, now);

/** The shipped 3-line TLE of one satellite. */
function shippedTle(noradId: number): [string, string, string] {
  const lines = shippedText.split('\n').filter((l) => l.trim() !== '');
  const at = lines.findIndex((l) => l.startsWith(`1 ${String(noradId).padStart(5, '0')}U`));
  return [lines[at - 1]!, lines[at]!, lines[at + 1]!];
}

/** A TLE line with columns `from`–… (1-based) replaced and its checksum made right again. */
function edit(line: string, column: number, text: string): string {
  const body = line.slice(0, column - 1) + text + line.slice(column - 1 + text.length, 68);
  return body + tleChecksum(body);
}

const ISS = shippedTle(25544);

describe('parseElementSets', () => {
  it('reads 3-line TLEs, 2-line TLEs (CRLF) and CelesTrak OMM JSON to the same catalog numbers', () => {
    const three = parse(ISS.join('\n'));
    expect(three.map((e) => [e.noradId, e.name, e.source.format])).toEqual([[25544, 'ISS (ZARYA)', 'tle']]);
    const two = parse(twoLineText);
    const omm = parse(ommText);
    expect(two.map((e) => e.noradId)).toEqual(omm.map((e) => e.noradId));
    expect(two.length).toBe(9);
    expect(two[0]!.name).toBe('NORAD 7530');
    expect(omm.find((e) => e.noradId === 25544)).toMatchObject({
      name: 'ISS (ZARYA)',
      cosparId: '1998-067A',
      source: { origin: 'archivo', format: 'omm' },
    });
    expect(omm[0]!.line1).toBeUndefined();
    const xml = parse(ommXml);
    expect(xml.map((e) => [e.noradId, e.name, e.cosparId, e.source.format])).toEqual(
      omm.map((e) => [e.noradId, e.name, e.cosparId, 'omm']),
    );
    // The same numbers, read from text instead of JSON numbers.
    expect(xml.map((e) => e.satrec.no)).toEqual(omm.map((e) => e.satrec.no));
    expect(xml.map((e) => e.satrec.bstar)).toEqual(omm.map((e) => e.satrec.bstar));
    expect(xml.map((e) => e.satrec.jdsatepoch)).toEqual(omm.map((e) => e.satrec.jdsatepoch));
  });

  it('reads entities and stated units in OMM XML', () => {
    const text = ommXml
      .replace('<OBJECT_NAME>ISS (ZARYA)</OBJECT_NAME>', '<OBJECT_NAME>ISS &amp; ZARYA</OBJECT_NAME>')
      .replace(
        '<MEAN_MOTION>15.49442433</MEAN_MOTION>',
        '<MEAN_MOTION units="rev/day">15.49442433</MEAN_MOTION>',
      );
    expect(parse(text).find((e) => e.noradId === 25544)!.name).toBe('ISS & ZARYA');
  });

  it('gives an OMM-loaded set the same passes as the same set loaded as TLE, and Skyfield’s', () => {
    const reference = JSON.parse(fixture('passes-reference.json')) as {
      start: string;
      hours: number;
      stations: Station[];
      results: {
        noradId: number;
        stationId: string;
        passes: { aos: string; tca: string; los: string; maxElevationDeg: number }[];
      }[];
    };
    const from = Date.parse(reference.start);
    const to = from + reference.hours * 3_600_000;
    const byId = (entries: ReturnType<typeof parse>) => new Map(entries.map((e) => [e.noradId, e.satrec]));
    const tle = byId(parse(twoLineText));
    const omm = byId(parse(ommText));
    let compared = 0;
    for (const ref of reference.results) {
      const station = reference.stations.find((s) => s.id === ref.stationId)!;
      const a = findPasses(tle.get(ref.noradId)!, station, from, to);
      const b = findPasses(omm.get(ref.noradId)!, station, from, to);
      if (a.visibility !== 'passes' || b.visibility !== 'passes') throw new Error('expected passes');
      expect(b.passes).toHaveLength(a.passes.length);
      expect(b.passes).toHaveLength(ref.passes.length);
      b.passes.forEach((p, i) => {
        const q = a.passes[i]!;
        const r = ref.passes[i]!;
        // OMM states the epoch to the microsecond; satellite.js reads it to the millisecond.
        for (const [x, y] of [
          [p.aosMs, q.aosMs],
          [p.tcaMs, q.tcaMs],
          [p.losMs, q.losMs],
        ] as const) {
          expect(Math.abs(x - y)).toBeLessThanOrEqual(5);
        }
        expect(Math.abs(p.maxElevationDeg - q.maxElevationDeg)).toBeLessThanOrEqual(0.001);
        expect(Math.abs(p.aosMs - Date.parse(r.aos))).toBeLessThanOrEqual(1000);
        expect(Math.abs(p.tcaMs - Date.parse(r.tca))).toBeLessThanOrEqual(1000);
        expect(Math.abs(p.losMs - Date.parse(r.los))).toBeLessThanOrEqual(1000);
        expect(Math.abs(p.maxElevationDeg - r.maxElevationDeg)).toBeLessThanOrEqual(0.05);
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(100);
  });

  const omm = JSON.parse(ommText) as Record<string, unknown>[];
  const ommWith = (patch: Record<string, unknown>) => JSON.stringify([omm[0], { ...omm[1], ...patch }]);
  const withoutField = (field: string) => {
    const { [field]: _, ...rest } = omm[1]!;
    return JSON.stringify([omm[0], rest]);
  };

  it.each([
    ['an empty body', '  \n', /empty body/],
    ['an HTML error page', '<!DOCTYPE html><html><body>503 Service Unavailable</body></html>', /HTML page/],
    [
      'a TLE cut after its first line',
      `${ISS.join('\n')}\n${shippedTle(20580).slice(0, 2).join('\n')}`,
      /set 2 \("HST"\) is incomplete/,
    ],
    [
      'a TLE cut in the middle of a line',
      `${ISS.join('\n')}\nHST\n${shippedTle(20580)[1]}\n${shippedTle(20580)[2]!.slice(0, 40)}`,
      /set 2: .*has 40 characters, expected 69/,
    ],
    [
      'a wrong checksum',
      `${ISS[0]}\n${ISS[1]}\n${ISS[2]!.slice(0, 68)}0`,
      /checksum mismatch \(line says 0, computed 5\)/,
    ],
    ['a NORAD id twice', `${ISS.join('\n')}\n${ISS.join('\n')}`, /NORAD 25544 appears twice/],
    ['JSON cut short', ommText.slice(0, 900), /not valid JSON/],
    [
      'an OMM record without MEAN_MOTION',
      withoutField('MEAN_MOTION'),
      /OMM record 2: NORAD 25544: MEAN_MOTION is missing/,
    ],
    [
      'an OMM record with a non-numeric field',
      ommWith({ BSTAR: 'abc' }),
      /BSTAR is missing or not a number \("abc"\)/,
    ],
    ['an OMM record in another frame', ommWith({ REF_FRAME: 'GCRF' }), /REF_FRAME is "GCRF", expected TEME/],
    [
      'an OMM record with a bad epoch',
      ommWith({ EPOCH: '26177.67101756' }),
      /EPOCH "26177.67101756" is not an ISO-8601/,
    ],
    [
      'an OMM record without a catalog number',
      ommWith({ NORAD_CAT_ID: 'ISS' }),
      /NORAD_CAT_ID "ISS" is not a catalog number/,
    ],
    ['an empty OMM list', '[]', /empty OMM list/],
    ['OMM XML cut short', ommXml.slice(0, 3000), /does not end with <\/ndm> \(truncated\?\)/],
    [
      'OMM XML in other units',
      ommXml.replace(
        '<MEAN_MOTION>15.49442433</MEAN_MOTION>',
        '<MEAN_MOTION units="rad/s">15.49442433</MEAN_MOTION>',
      ),
      /OMM record 2: MEAN_MOTION in units "rad\/s", expected rev\/day/,
    ],
    ['XML that is not OMM', '<?xml version="1.0"?><rss></rss>', /XML without <ndm> or <omm>/],
    ['OMM XML without records', '<ndm></ndm>', /without any <omm> element/],
    [
      'a mean motion of 0.02 rev/day',
      ommWith({ MEAN_MOTION: 0.02 }),
      /mean motion 0.02 rev\/day is outside 0.05–17/,
    ],
    ['an eccentricity of 0.995', ommWith({ ECCENTRICITY: 0.995 }), /eccentricity 0.995 is outside 0–0.99/],
    [
      'an epoch two days ahead',
      ommWith({ EPOCH: '2026-07-02T00:00:00.000000' }),
      /epoch 2026-07-02T00:00:00.000Z is more than a day ahead/,
    ],
    [
      'an orbit below the ground (18 rev/day)',
      ommWith({ MEAN_MOTION: 18 }),
      /NORAD 25544: SGP4 rejected the element set \(error 6\)/,
    ],
  ])('rejects %s whole, saying why', (_, text, reason) => {
    expect(() => parse(text)).toThrow(ElementSourceError);
    expect(() => parse(text)).toThrow(reason);
  });

  it('accepts an epoch less than a day ahead (a fresh set and a slightly slow clock)', () => {
    const sets = parse(ommWith({ EPOCH: '2026-06-30T20:00:00.000000' }));
    expect(new Date(epochMs(sets[1]!.satrec)).toISOString()).toBe('2026-06-30T20:00:00.000Z');
  });
});

describe('ElementStore', () => {
  const shipped = loadCatalog(shippedText);
  const newerIss = [ISS[0], edit(ISS[1], 19, '26180.50000000'), ISS[2]].join('\n');

  it('replaces a set only with a newer one, keeps the shipped name, adds a new NORAD id as the source says', () => {
    const store = new ElementStore(shipped);
    const before = store.catalog;
    const noaa15 = shippedTle(25338);
    const olderNoaa = ['NOAA-15 RENAMED', edit(noaa15[1], 19, '25200.00000000'), noaa15[2]].join('\n');
    const stranger = [
      'TEST OBJECT',
      edit(edit(ISS[1], 3, '90001'), 10, '26001A  '),
      edit(ISS[2], 3, '90001'),
    ].join('\n');
    const renamed = newerIss.replace('ISS (ZARYA)', 'ISS');
    const change = store.apply(
      parse(`${renamed}\n${olderNoaa}\n${stranger}\n${shippedTle(20580).join('\n')}`),
    );
    expect(change).toEqual({ updated: [25544], added: [90001], older: [25338], unchanged: [20580] });
    const after = store.catalog;
    expect(after).not.toBe(before);
    expect(before.get(25544)!.source).toBe(SHIPPED_SOURCE);
    expect(after.get(25544)).toMatchObject({
      name: 'ISS (ZARYA)',
      cosparId: '1998-067A',
      status: 'operativo',
    });
    expect(new Date(epochMs(after.get(25544)!.satrec)).toISOString()).toBe('2026-06-29T12:00:00.000Z');
    expect(after.get(25338)).toBe(before.get(25338));
    expect(after.get(20580)).toBe(before.get(20580));
    expect(after.get(90001)).toMatchObject({ name: 'TEST OBJECT', cosparId: '2026-001A', source: FILE });
    expect(after.size).toBe(before.size + 1);
  });

  it('tells listeners what changed, and nothing when nothing did', () => {
    const store = new ElementStore(shipped);
    const seen: unknown[] = [];
    const stop = store.onChange((change) => seen.push(change));
    const before = store.catalog;
    store.apply(parse(ISS.join('\n')));
    expect(store.catalog).toBe(before);
    store.apply(parse(newerIss));
    expect(seen).toEqual([{ updated: [25544], added: [], older: [], unchanged: [] }]);
    stop();
    store.apply(parse([ISS[0], edit(ISS[1], 19, '26181.50000000'), ISS[2]].join('\n')));
    expect(seen).toHaveLength(1);
  });
});
