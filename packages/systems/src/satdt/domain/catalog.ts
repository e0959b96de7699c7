import { type SatRec, twoline2satrec } from 'satellite.js';

/** Operational status as the twin reports it (Spanish: it reaches the MCP surface verbatim). */
export type OperationalStatus = 'operativo' | 'retirado';

/** Where an element set came from: the shipped catalog, an operator's file or an HTTP source. */
export type ElementOrigin = 'catalogo_incluido' | 'archivo' | 'url';
export type ElementFormat = 'tle' | 'omm';

export interface ElementSource {
  origin: ElementOrigin;
  /** The file path or URL; for the shipped catalog, where its credits are. */
  location: string;
  format: ElementFormat;
  /** When the twin took this set in, Unix ms. */
  loadedAtMs: number;
}

/** The shipped sets were taken in when the twin was built: their load time is their epoch's season. */
export const SHIPPED_SOURCE: ElementSource = {
  origin: 'catalogo_incluido',
  location: 'CelesTrak (GP, grupo "active"); ver data/satdt/CREDITS.md',
  format: 'tle',
  loadedAtMs: 0,
};

export interface CatalogEntry {
  noradId: number;
  name: string;
  /** International designator in COSPAR form, e.g. `1998-067A`. */
  cosparId: string;
  /** The set's TLE lines when it came as a TLE; an OMM-loaded set has none. */
  line1?: string;
  line2?: string;
  status: OperationalStatus;
  satrec: SatRec;
  source: ElementSource;
}

export type Catalog = ReadonlyMap<number, CatalogEntry>;

/**
 * Satellites whose element sets ship in the catalog although they no longer operate. The rest of the
 * catalog comes from CelesTrak's "active" group, which is what makes them "operativo". NOAA
 * decommissioned these three POES weather satellites in 2025; their last element sets before they
 * left the active list are kept so the twin can still show them.
 */
const RETIRED: ReadonlyMap<number, string> = new Map([
  [25338, 'NOAA 15'],
  [28654, 'NOAA 18'],
  [33591, 'NOAA 19'],
]);

export function operationalStatus(noradId: number): OperationalStatus {
  return RETIRED.has(noradId) ? 'retirado' : 'operativo';
}

/** Modulo-10 checksum of a TLE line: digits count their value, minus signs count 1. */
export function tleChecksum(line: string): number {
  let sum = 0;
  for (let i = 0; i < 68 && i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 48 && c <= 57) sum += c - 48;
    else if (c === 45) sum += 1;
  }
  return sum % 10;
}

function checkElementLine(line: string, lineNo: 1 | 2, where: string): void {
  if (line.length < 69) {
    throw new Error(`${where}: TLE line ${lineNo} has ${line.length} characters, expected 69`);
  }
  if (!line.startsWith(`${lineNo} `)) {
    throw new Error(`${where}: expected TLE line ${lineNo} to start with "${lineNo} "`);
  }
  const stated = line.charCodeAt(68) - 48;
  if (stated < 0 || stated > 9) {
    throw new Error(`${where}: TLE line ${lineNo} has no checksum digit in column 69`);
  }
  const computed = tleChecksum(line);
  if (computed !== stated) {
    throw new Error(
      `${where}: TLE line ${lineNo} checksum mismatch (line says ${stated}, computed ${computed})`,
    );
  }
}

/**
 * `98067A` → `1998-067A`. TLEs carry a two-digit launch year; the first satellites flew in 1957, so
 * 57–99 are 19xx and 00–56 are 20xx, the same pivot SGP4 uses for the epoch year.
 */
export function cosparFromIntlDesignator(designator: string): string {
  const d = designator.trim();
  const match = /^(\d{2})(\d{3})([A-Z]{1,3})$/.exec(d);
  if (!match) throw new Error(`malformed international designator "${designator}"`);
  const [, yy, launch, piece] = match;
  const year = Number(yy) < 57 ? 2000 + Number(yy) : 1900 + Number(yy);
  return `${year}-${launch}${piece}`;
}

/**
 * Parses one element set. `name` may be empty (2-line sets); the checksum, the line numbers and the
 * NORAD id shared by both lines are checked, since a corrupt set would otherwise propagate silently
 * to a wrong orbit.
 */
export function parseTle(
  name: string,
  line1: string,
  line2: string,
  source: ElementSource = SHIPPED_SOURCE,
): CatalogEntry {
  const l1 = line1.trimEnd();
  const l2 = line2.trimEnd();
  const cleanName = name.trim().replace(/^0 /, '').trim();
  const where = cleanName ? `TLE "${cleanName}"` : 'TLE';
  checkElementLine(l1, 1, where);
  checkElementLine(l2, 2, where);
  const id1 = l1.slice(2, 7);
  const id2 = l2.slice(2, 7);
  if (id1 !== id2) throw new Error(`${where}: NORAD ids differ between lines (${id1} vs ${id2})`);
  if (!/^\s*\d+$/.test(id1)) {
    // Alpha-5 ids (letters in column 3) are not used by the shipped catalog.
    throw new Error(`${where}: unsupported NORAD id "${id1}"`);
  }
  const noradId = Number(id1);
  const satrec = twoline2satrec(l1, l2);
  if (satrec.error !== 0) {
    throw new Error(`${where}: SGP4 rejected the element set (error ${satrec.error})`);
  }
  return {
    noradId,
    name: cleanName || `NORAD ${noradId}`,
    cosparId: cosparFromIntlDesignator(l1.slice(9, 17)),
    line1: l1,
    line2: l2,
    status: operationalStatus(noradId),
    satrec,
    source,
  };
}

/** Parses a 3-line TLE text (name line + two element lines per satellite); blank lines are ignored. */
export function parseTleText(text: string): CatalogEntry[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '');
  if (lines.length % 3 !== 0) {
    throw new Error(
      `TLE text has ${lines.length} non-empty lines, expected a multiple of 3 (name, line 1, line 2)`,
    );
  }
  const entries: CatalogEntry[] = [];
  for (let i = 0; i < lines.length; i += 3) {
    entries.push(parseTle(lines[i]!, lines[i + 1]!, lines[i + 2]!));
  }
  return entries;
}

/** The catalog keyed by NORAD id; a NORAD id appearing twice is an error rather than a silent overwrite. */
export function loadCatalog(text: string): Catalog {
  const catalog = new Map<number, CatalogEntry>();
  for (const entry of parseTleText(text)) {
    if (catalog.has(entry.noradId)) throw new Error(`NORAD id ${entry.noradId} appears twice in the catalog`);
    catalog.set(entry.noradId, entry);
  }
  return catalog;
}
