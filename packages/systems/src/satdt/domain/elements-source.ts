import { json2satrec, type OMMJsonObject } from 'satellite.js';
import {
  type CatalogEntry,
  cosparFromIntlDesignator,
  type ElementSource,
  operationalStatus,
  parseTle,
} from './catalog.js';
import { epochMs, meanMotionRevPerDay } from './elements.js';

/** Why a whole file or response was refused; nothing of it reaches the catalog. */
export class ElementSourceError extends Error {
  override name = 'ElementSourceError';
}

/**
 * Physical bounds of an Earth orbit SGP4 can model: 17 rev/day is a period of 85 min, below any orbit
 * that survives a revolution; 0.05 rev/day (20 days) is beyond the Moon's distance, where the twin's
 * Earth-only model means nothing. An eccentricity of 1 is no longer an orbit.
 */
export const MEAN_MOTION_REV_DAY = { min: 0.05, max: 17 } as const;
export const MAX_ECCENTRICITY = 0.99;
/** Element sets are fitted to past observations; one dated further ahead is a clock or data error. */
export const MAX_EPOCH_AHEAD_MS = 86_400_000;

/**
 * Parses a whole file or HTTP body of element sets (3-line or 2-line TLE, or CCSDS OMM as JSON or XML,
 * as CelesTrak's GP API serves them) and checks every set. Any failing set rejects the whole text: a body with
 * one corrupt set is a corrupt download (truncated, an error page, a mangled line), and half of it would
 * mix bad data into a good catalog.
 */
export function parseElementSets(
  text: string,
  source: Omit<ElementSource, 'format'>,
  nowMs: number,
): CatalogEntry[] {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '') throw new ElementSourceError('empty body: no element sets');
  let entries: CatalogEntry[];
  if (body.startsWith('<')) {
    const head = body.slice(0, 500).toLowerCase();
    if (head.includes('<html') || head.includes('<!doctype')) {
      throw new ElementSourceError('an HTML page, not element sets (an error or login page?)');
    }
    entries = parseOmmXml(body, source);
  } else if (body.startsWith('[') || body.startsWith('{')) entries = parseOmmJson(body, source);
  else entries = parseTleSets(body, source);
  const seen = new Set<number>();
  for (const entry of entries) {
    if (seen.has(entry.noradId)) throw new ElementSourceError(`NORAD ${entry.noradId} appears twice`);
    seen.add(entry.noradId);
    checkPhysical(entry, nowMs);
  }
  return entries;
}

/** 2- or 3-line TLEs, told apart line by line: a name line is one that is not an element line. */
function parseTleSets(body: string, source: Omit<ElementSource, 'format'>): CatalogEntry[] {
  const lines = body
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  const entries: CatalogEntry[] = [];
  let i = 0;
  while (i < lines.length) {
    let name = '';
    if (!lines[i]!.startsWith('1 ')) {
      name = lines[i]!;
      i++;
    }
    const line1 = lines[i];
    const line2 = lines[i + 1];
    if (line1 === undefined || line2 === undefined) {
      throw new ElementSourceError(
        `set ${entries.length + 1}${name ? ` ("${name.trim()}")` : ''} is incomplete: the text ends before its two element lines (truncated?)`,
      );
    }
    try {
      entries.push(parseTle(name, line1, line2, { ...source, format: 'tle' }));
    } catch (error) {
      throw new ElementSourceError(`set ${entries.length + 1}: ${(error as Error).message}`);
    }
    i += 2;
  }
  return entries;
}

const OMM_NUMBERS = [
  'MEAN_MOTION',
  'ECCENTRICITY',
  'INCLINATION',
  'RA_OF_ASC_NODE',
  'ARG_OF_PERICENTER',
  'MEAN_ANOMALY',
  'BSTAR',
  'MEAN_MOTION_DOT',
  'MEAN_MOTION_DDOT',
] as const;

/** OMM EPOCH as CelesTrak writes it: UTC without a zone, fractional seconds to the microsecond. */
const OMM_EPOCH = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/;

function parseOmmJson(body: string, source: Omit<ElementSource, 'format'>): CatalogEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (error) {
    throw new ElementSourceError(`not valid JSON (truncated?): ${(error as Error).message}`);
  }
  const records = Array.isArray(parsed) ? parsed : [parsed];
  if (records.length === 0) throw new ElementSourceError('an empty OMM list: no element sets');
  return records.map((record, index) => {
    try {
      return ommEntry(record, source);
    } catch (error) {
      throw new ElementSourceError(`OMM record ${index + 1}: ${(error as Error).message}`);
    }
  });
}

/** Units CCSDS fixes for OMM mean elements; an XML `units` attribute may restate them, never change them. */
const OMM_UNITS: Readonly<Record<string, string>> = {
  MEAN_MOTION: 'rev/day',
  INCLINATION: 'deg',
  RA_OF_ASC_NODE: 'deg',
  ARG_OF_PERICENTER: 'deg',
  MEAN_ANOMALY: 'deg',
  BSTAR: '1/er',
  MEAN_MOTION_DOT: 'rev/day**2',
  MEAN_MOTION_DDOT: 'rev/day**3',
};
const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * OMM XML (`<ndm><omm>…` as CelesTrak's `FORMAT=xml` serves it). Its leaf elements carry the same names
 * as the JSON keys, so each `<omm>` becomes the same record; no general XML parser is needed for that.
 */
function parseOmmXml(body: string, source: Omit<ElementSource, 'format'>): CatalogEntry[] {
  const root = /<(ndm|omm)\b/.exec(body)?.[1];
  if (!root) throw new ElementSourceError('XML without <ndm> or <omm>: not OMM element sets');
  if (!new RegExp(`</${root}>$`).test(body)) {
    throw new ElementSourceError(`OMM XML does not end with </${root}> (truncated?)`);
  }
  const blocks = [...body.matchAll(/<omm\b[^>]*>([\s\S]*?)<\/omm>/g)];
  if (blocks.length === 0) throw new ElementSourceError('OMM XML without any <omm> element');
  return blocks.map((block, index) => {
    try {
      const record: Record<string, string> = {};
      for (const [, tag, attributes, text] of block[1]!.matchAll(
        /<([A-Z_]+)((?:\s+[\w:-]+="[^"]*")*)\s*>([^<]*)<\/\1>/g,
      )) {
        const units = /\bunits="([^"]*)"/.exec(attributes!)?.[1];
        const expected = OMM_UNITS[tag!];
        if (units !== undefined && expected !== undefined && units.toLowerCase() !== expected) {
          throw new Error(`${tag} in units "${units}", expected ${expected}`);
        }
        record[tag!] = text!
          .trim()
          .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
      }
      return ommEntry(record, source);
    } catch (error) {
      throw new ElementSourceError(`OMM record ${index + 1}: ${(error as Error).message}`);
    }
  });
}

function ommEntry(record: unknown, source: Omit<ElementSource, 'format'>): CatalogEntry {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    throw new Error('not an object');
  }
  const omm = record as Record<string, unknown>;
  const noradId = Number(omm.NORAD_CAT_ID);
  if (!Number.isInteger(noradId) || noradId < 1 || noradId > 339_999) {
    throw new Error(`NORAD_CAT_ID ${JSON.stringify(omm.NORAD_CAT_ID)} is not a catalog number (1–339999)`);
  }
  const where = `NORAD ${noradId}`;
  // The units are fixed by the standard; a record stating others is not one SGP4 can read.
  const fixed: Record<string, string> = {
    CENTER_NAME: 'EARTH',
    REF_FRAME: 'TEME',
    TIME_SYSTEM: 'UTC',
    MEAN_ELEMENT_THEORY: 'SGP4',
  };
  for (const [field, expected] of Object.entries(fixed)) {
    if (omm[field] !== undefined && String(omm[field]).toUpperCase() !== expected) {
      throw new Error(`${where}: ${field} is ${JSON.stringify(omm[field])}, expected ${expected}`);
    }
  }
  if (omm.EPHEMERIS_TYPE !== undefined && Number(omm.EPHEMERIS_TYPE) !== 0) {
    throw new Error(`${where}: EPHEMERIS_TYPE ${JSON.stringify(omm.EPHEMERIS_TYPE)}, SGP4 needs 0`);
  }
  if (typeof omm.EPOCH !== 'string' || !OMM_EPOCH.test(omm.EPOCH)) {
    throw new Error(`${where}: EPOCH ${JSON.stringify(omm.EPOCH)} is not an ISO-8601 UTC time`);
  }
  for (const field of OMM_NUMBERS) {
    const value = omm[field];
    if (value === undefined || value === null || value === '' || !Number.isFinite(Number(value))) {
      throw new Error(`${where}: ${field} is missing or not a number (${JSON.stringify(value)})`);
    }
  }
  const name = typeof omm.OBJECT_NAME === 'string' ? omm.OBJECT_NAME.trim() : '';
  const objectId = typeof omm.OBJECT_ID === 'string' ? omm.OBJECT_ID.trim() : '';
  const satrec = json2satrec({ ELEMENT_SET_NO: 999, ...omm } as OMMJsonObject);
  if (satrec.error !== 0) throw new Error(`${where}: SGP4 rejected the element set (error ${satrec.error})`);
  return {
    noradId,
    name: name || `NORAD ${noradId}`,
    cosparId: cospar(objectId),
    status: operationalStatus(noradId),
    satrec,
    source: { ...source, format: 'omm' },
  };
}

/** OMM's OBJECT_ID is already `1998-067A`; some sources send the TLE form `98067A`. */
function cospar(objectId: string): string {
  if (/^\d{4}-\d{3}[A-Z]{1,3}$/.test(objectId)) return objectId;
  try {
    return cosparFromIntlDesignator(objectId);
  } catch {
    return objectId || 'desconocido';
  }
}

function checkPhysical(entry: CatalogEntry, nowMs: number): void {
  const { satrec } = entry;
  const where = `NORAD ${entry.noradId}`;
  const n = meanMotionRevPerDay(satrec);
  if (!(n >= MEAN_MOTION_REV_DAY.min && n <= MEAN_MOTION_REV_DAY.max)) {
    throw new ElementSourceError(
      `${where}: mean motion ${n} rev/day is outside ${MEAN_MOTION_REV_DAY.min}–${MEAN_MOTION_REV_DAY.max}`,
    );
  }
  if (!(satrec.ecco >= 0 && satrec.ecco <= MAX_ECCENTRICITY)) {
    throw new ElementSourceError(`${where}: eccentricity ${satrec.ecco} is outside 0–${MAX_ECCENTRICITY}`);
  }
  const epoch = epochMs(satrec);
  if (epoch > nowMs + MAX_EPOCH_AHEAD_MS) {
    throw new ElementSourceError(
      `${where}: epoch ${new Date(epoch).toISOString()} is more than a day ahead of now (${new Date(nowMs).toISOString()})`,
    );
  }
}
