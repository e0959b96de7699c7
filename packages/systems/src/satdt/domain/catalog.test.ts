import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  cosparFromIntlDesignator,
  loadCatalog,
  operationalStatus,
  parseTle,
  tleChecksum,
} from './catalog.js';

const here = dirname(fileURLToPath(import.meta.url));
const text = readFileSync(join(here, '..', '..', '..', 'data', 'satdt', 'catalog.tle'), 'utf8');

const ISS_NAME = 'ISS (ZARYA)             ';
const ISS_1 = '1 25544U 98067A   26177.67101756  .00008101  00000+0  15268-3 0  9990';
const ISS_2 = '2 25544  51.6322 253.1475 0004299 235.1263 124.9322 15.49442433573225';

/** The same line with its checksum digit recomputed. */
function withChecksum(line: string): string {
  return line.slice(0, 68) + String(tleChecksum(line));
}

/** Changes one digit of a line without fixing its checksum. */
function corrupt(line: string, column: number): string {
  const digit = line[column]!;
  const other = digit === '9' ? '8' : String(Number(digit) + 1);
  return line.slice(0, column) + other + line.slice(column + 1);
}

describe('catalog', () => {
  it('loads the shipped catalog: 56 satellites keyed by NORAD id, ISS among them', () => {
    const catalog = loadCatalog(text);
    expect(catalog.size).toBe(56);
    const iss = catalog.get(25544)!;
    expect(iss.name).toBe('ISS (ZARYA)');
    expect(iss.cosparId).toBe('1998-067A');
    expect(iss.line1).toMatch(/^1 25544U/);
    expect(iss.line2).toMatch(/^2 25544 /);
    expect(iss.status).toBe('operativo');
    expect(iss.satrec.satnum).toBe('25544');
    expect(catalog.get(39444)!.cosparId).toBe('2013-066AE');
    expect(catalog.get(7530)!.cosparId).toBe('1974-089B');
    expect(catalog.get(60133)!.cosparId).toBe('2024-119A');
  });

  it('marks NOAA 15, 18 and 19 retired and the rest operational', () => {
    const catalog = loadCatalog(text);
    const retired = [...catalog.values()].filter((e) => e.status === 'retirado').map((e) => e.noradId);
    expect(retired.sort()).toEqual([25338, 28654, 33591]);
    expect(operationalStatus(25544)).toBe('operativo');
  });

  it('parses a single set and tolerates CRLF, trailing blanks and a "0 " name prefix', () => {
    const entry = parseTle(`0 ${ISS_NAME}`, `${ISS_1}  `, ISS_2);
    expect(entry.name).toBe('ISS (ZARYA)');
    expect(entry.noradId).toBe(25544);
    expect(loadCatalog(`${ISS_NAME}\r\n${ISS_1}\r\n${ISS_2}\r\n\r\n`).size).toBe(1);
  });

  it('computes the modulo-10 checksum (minus signs count one)', () => {
    expect(tleChecksum(ISS_1)).toBe(0);
    expect(tleChecksum(ISS_2)).toBe(5);
    expect(tleChecksum('1 00000U 00000A   00000.00000000 -.00000001  00000-0  00000-0 0  0000')).toBe(5);
  });

  it('rejects a line whose checksum does not match, naming the satellite and line', () => {
    expect(() => parseTle(ISS_NAME, corrupt(ISS_1, 20), ISS_2)).toThrow(
      /TLE "ISS \(ZARYA\)": TLE line 1 checksum mismatch/,
    );
    expect(() => parseTle(ISS_NAME, ISS_1, corrupt(ISS_2, 10))).toThrow(/line 2 checksum mismatch/);
  });

  it('rejects truncated lines, swapped lines, mismatched ids, duplicates and stray lines', () => {
    expect(() => parseTle(ISS_NAME, ISS_1.slice(0, 60), ISS_2)).toThrow(/expected 69/);
    expect(() => parseTle(ISS_NAME, ISS_2, ISS_1)).toThrow(/start with "1 "/);
    const otherId = withChecksum(ISS_2.replace('2 25544', '2 25545'));
    expect(() => parseTle(ISS_NAME, ISS_1, otherId)).toThrow(/NORAD ids differ/);
    expect(() => loadCatalog([ISS_NAME, ISS_1, ISS_2, ISS_NAME, ISS_1, ISS_2].join('\n'))).toThrow(
      /appears twice/,
    );
    expect(() => loadCatalog([ISS_NAME, ISS_1].join('\n'))).toThrow(/multiple of 3/);
  });

  it('converts international designators to COSPAR form with the 1957 pivot', () => {
    expect(cosparFromIntlDesignator('98067A  ')).toBe('1998-067A');
    expect(cosparFromIntlDesignator('57001B')).toBe('1957-001B');
    expect(cosparFromIntlDesignator('56001ABC')).toBe('2056-001ABC');
    expect(() => cosparFromIntlDesignator('9806')).toThrow(/malformed/);
  });
});
