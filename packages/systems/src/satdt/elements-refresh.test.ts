import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inProcessTransport } from '@code-cluster/shared';
import { SatdtClient } from '@code-cluster/shared/satdt';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEMS } from '../registry.js';
import { tleChecksum } from './domain/catalog.js';
import { epochMs } from './domain/elements.js';
import { createSatdtSystem, type SatdtSystem } from './system.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, '..', '..');
const shippedText = readFileSync(join(pkg, 'data', 'satdt', 'catalog.tle'), 'utf8');
const ommText = readFileSync(
  join(pkg, 'test', 'fixtures', 'satdt', 'elements', 'reference-sets.omm.json'),
  'utf8',
);

const NOW = Date.parse('2026-06-30T00:00:00Z');

function shippedTle(noradId: number): [string, string, string] {
  const lines = shippedText.split('\n').filter((l) => l.trim() !== '');
  const at = lines.findIndex((l) => l.startsWith(`1 ${String(noradId).padStart(5, '0')}U`));
  return [lines[at - 1]!, lines[at]!, lines[at + 1]!];
}
/** The shipped set of a satellite re-dated to `epoch` (TLE epoch field), its checksum right. */
function redated(noradId: number, epoch: string): string {
  const [name, line1, line2] = shippedTle(noradId);
  const body = line1.slice(0, 18) + epoch + line1.slice(32, 68);
  return [name, body + tleChecksum(body), line2].join('\n');
}
const epochOf = (system: SatdtSystem, noradId: number) =>
  new Date(epochMs(system.catalog.get(noradId)!.satrec)).toISOString();

/** Newer ISS and HST sets (29/06 12:00Z), and NOAA 15 older than the shipped one. */
const GOOD = [
  redated(25544, '26180.50000000'),
  redated(20580, '26180.50000000'),
  redated(25338, '25100.00000000'),
].join('\n');
const CHECKSUM = `${redated(20580, '26180.60000000')}\n${GOOD.slice(0, -1)}${(Number(GOOD.at(-1)) + 1) % 10}`;

interface Route {
  status?: number;
  body?: string;
  type?: string;
  etag?: string;
  /** Never answers: the refresher's timeout must give up. */
  hang?: boolean;
}

let server: Server;
let base: string;
const routes = new Map<string, Route>();
const seen: { path: string; ifNoneMatch?: string }[] = [];
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push({
      path: req.url!,
      ...(req.headers['if-none-match'] ? { ifNoneMatch: req.headers['if-none-match'] } : {}),
    });
    const route = routes.get(req.url!);
    if (!route) return void res.writeHead(404).end('not found');
    if (route.hang) return void hanging.push(res);
    if (route.etag && req.headers['if-none-match'] === route.etag) return void res.writeHead(304).end();
    res.writeHead(route.status ?? 200, {
      'content-type': route.type ?? 'text/plain',
      ...(route.etag ? { etag: route.etag } : {}),
    });
    res.end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const dirs: string[] = [];
const systems: SatdtSystem[] = [];
afterEach(() => {
  for (const s of systems.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  routes.clear();
  seen.length = 0;
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'satdt-elements-'));
  dirs.push(dir);
  return dir;
}

/** A twin whose element sources are `paths` on the loopback server; its log lines are collected. */
function twin(
  paths: string[],
  extra: { cacheDir?: string; file?: string; maxBytes?: number; refreshHours?: number } = {},
) {
  const log: string[] = [];
  const system = createSatdtSystem({
    now: () => NOW,
    elements: {
      urls: paths.map((p) => `${base}${p}`),
      cacheDir: extra.cacheDir ?? tempDir(),
      timeoutMs: 500,
      ...(extra.file ? { file: extra.file } : {}),
      ...(extra.maxBytes ? { maxBytes: extra.maxBytes } : {}),
      ...(extra.refreshHours ? { refreshHours: extra.refreshHours } : {}),
    },
    log: (level, message) => log.push(`${level}: ${message}`),
  });
  systems.push(system);
  return { system, log };
}

describe('element sources over HTTP', () => {
  it('replaces exactly the valid, newer sets of a good source and none of a bad one', async () => {
    routes.set('/good.tle', { body: GOOD, etag: '"v1"' });
    routes.set('/bad.tle', { body: CHECKSUM });
    routes.set('/omm.json', { body: ommText, type: 'application/json' });
    const { system } = twin(['/good.tle', '/bad.tle', '/omm.json']);
    const shippedEntries = new Map(system.catalog);
    // The twin fetches its URLs as it starts: that first refresh is the one that takes the sets in
    // (an explicit refresh after it would find good.tle unmodified).
    const report = (await system.started)!;
    expect(report.sources.map((s) => [s.location.slice(base.length), s.result])).toEqual([
      ['/good.tle', 'actualizada'],
      ['/bad.tle', 'rechazada'],
      ['/omm.json', 'sin_cambios'],
    ]);
    expect(report.sources[0]).toMatchObject({ sets: 3, updated: [25544, 20580], older: [25338], added: [] });
    expect(report.sources[1]!.reason).toMatch(/checksum mismatch/);
    // The OMM fixture holds the shipped sets: the same epochs, and an ISS set older than good.tle's.
    expect(report.sources[2]).toMatchObject({ sets: 9, updated: [], older: [25544] });
    expect(report.sources[2]!.unchanged).toHaveLength(8);
    const changed = [...system.catalog.values()].filter((e) => e !== shippedEntries.get(e.noradId));
    expect(changed.map((e) => e.noradId).sort()).toEqual([20580, 25544]);
    expect(epochOf(system, 25544)).toBe('2026-06-29T12:00:00.000Z');
    expect(system.catalog.get(25544)!.source).toMatchObject({
      origin: 'url',
      location: `${base}/good.tle`,
      format: 'tle',
    });
    expect(system.catalog.size).toBe(shippedEntries.size);
  });

  it.each([
    [
      'an HTML error page',
      { body: '<html><body>502 Bad Gateway</body></html>', type: 'text/html' },
      'rechazada',
      /HTML page/,
    ],
    [
      'a truncated download',
      { body: GOOD.slice(0, GOOD.length - 30) },
      'rechazada',
      /has 39 characters, expected 69/,
    ],
    ['a wrong checksum', { body: CHECKSUM }, 'rechazada', /checksum mismatch/],
    ['truncated OMM JSON', { body: ommText.slice(0, 1000) }, 'rechazada', /not valid JSON/],
    ['a server error', { status: 500, body: 'oops' }, 'inaccesible', /HTTP 500/],
    ['a slow response', { hang: true }, 'inaccesible', /no complete answer within 500 ms/],
  ] as const)('changes nothing on %s, and logs why', async (_, route, result, reason) => {
    routes.set('/src', route);
    const { system, log } = twin(['/src']);
    const before = system.catalog;
    const report = await system.refreshElements();
    expect(report.sources[0]).toMatchObject({ result, updated: [], added: [] });
    expect(report.sources[0]!.reason).toMatch(reason);
    expect(system.catalog).toBe(before);
    expect(log.some((line) => line.startsWith('warning: satdt: element source') && reason.test(line))).toBe(
      true,
    );
  });

  it('refuses a body over the size cap', async () => {
    routes.set('/big', { body: GOOD });
    const { system } = twin(['/big'], { maxBytes: 100 });
    const before = system.catalog;
    const report = await system.refreshElements();
    expect(report.sources[0]).toMatchObject({ result: 'inaccesible' });
    expect(report.sources[0]!.reason).toMatch(/over the 100-byte cap/);
    expect(system.catalog).toBe(before);
  });

  it('asks conditionally, takes a 304 as no change, and keeps the sets of a source that disappears', async () => {
    routes.set('/good.tle', { body: GOOD, etag: '"v1"' });
    const { system } = twin(['/good.tle']);
    await system.refreshElements();
    const taken = system.catalog;
    const second = await system.refreshElements();
    expect(second.sources[0]!.result).toBe('no_modificada');
    expect(seen.filter((s) => s.path === '/good.tle').at(-1)).toEqual({
      path: '/good.tle',
      ifNoneMatch: '"v1"',
    });
    expect(system.catalog).toBe(taken);
    routes.delete('/good.tle');
    const gone = await system.refreshElements();
    expect(gone.sources[0]).toMatchObject({ result: 'inaccesible', reason: 'HTTP 404' });
    expect(system.catalog).toBe(taken);
    expect(epochOf(system, 25544)).toBe('2026-06-29T12:00:00.000Z');
  });

  it('starts from the cached body after a restart with the network gone', async () => {
    const cacheDir = tempDir();
    routes.set('/good.tle', { body: GOOD, etag: '"v1"' });
    const first = twin(['/good.tle'], { cacheDir });
    await first.system.refreshElements();
    first.system.close();
    routes.clear();
    // The source now answers nothing: only the cache can give the newer ISS set.
    const second = twin(['/good.tle'], { cacheDir });
    expect(epochOf(second.system, 25544)).toBe('2026-06-29T12:00:00.000Z');
    expect(second.system.catalog.get(25544)!.source.origin).toBe('url');
    const report = await second.system.refreshElements();
    expect(report.sources[0]).toMatchObject({ result: 'inaccesible' });
    expect(epochOf(second.system, 25544)).toBe('2026-06-29T12:00:00.000Z');
  });

  it('ignores a corrupt cache and keeps the shipped sets', async () => {
    const cacheDir = tempDir();
    routes.set('/good.tle', { body: GOOD, etag: '"v1"' });
    const first = twin(['/good.tle'], { cacheDir });
    await first.system.refreshElements();
    first.system.close();
    for (const name of readdirSync(cacheDir)) {
      if (name.endsWith('.elements')) writeFileSync(join(cacheDir, name), GOOD.slice(0, 100));
    }
    routes.clear();
    const second = twin(['/good.tle'], { cacheDir });
    expect(epochOf(second.system, 25544)).toBe(
      new Date(epochMs(createSatdtSystem().catalog.get(25544)!.satrec)).toISOString(),
    );
    expect(second.log.some((l) => l.includes('rejected'))).toBe(true);
    // Without a body the catalog holds, the next request is unconditional.
    await second.system.refreshElements();
    expect(seen.at(-1)).toEqual({ path: '/good.tle' });
  });
});

describe('the element file', () => {
  it('is read at start and on every refresh, a bad version changing nothing', async () => {
    const file = join(tempDir(), 'elements.tle');
    writeFileSync(file, GOOD);
    const { system } = twin([], { file });
    expect(epochOf(system, 25544)).toBe('2026-06-29T12:00:00.000Z');
    expect(system.catalog.get(25544)!.source).toMatchObject({ origin: 'archivo', location: file });
    const taken = system.catalog;
    writeFileSync(file, '<!doctype html><title>404</title>');
    const report = await system.refreshElements();
    expect(report.sources).toMatchObject([{ origin: 'archivo', result: 'rechazada' }]);
    expect(system.catalog).toBe(taken);
    rmSync(file);
    expect((await system.refreshElements()).sources[0]).toMatchObject({ result: 'inaccesible' });
    expect(system.catalog).toBe(taken);
  });
});

describe('the refresh schedule', () => {
  it('fetches the URLs again every refreshHours, without being asked', async () => {
    routes.set('/good.tle', { status: 503 });
    // Every 0.1 s, so the test need not wait hours; the first fetch at start meets a 503.
    const { system } = twin(['/good.tle'], { refreshHours: 1 / 36_000 });
    // Queued behind the start-up fetch: once it answers, both met the 503.
    expect((await system.refreshElements()).sources[0]).toMatchObject({ reason: 'HTTP 503' });
    const changed = new Promise((resolve) => system.onElementsChange(resolve));
    routes.set('/good.tle', { body: GOOD });
    expect(await changed).toMatchObject({ updated: [25544, 20580] });
  });
});

describe('the code-systems satdt service', () => {
  it('reads SATDT_ELEMENTS_FILE like satdt-mcp does', async () => {
    const file = join(tempDir(), 'elements.tle');
    writeFileSync(file, GOOD);
    const saved = process.env.SATDT_ELEMENTS_FILE;
    process.env.SATDT_ELEMENTS_FILE = file;
    try {
      const handler = await SYSTEMS.satdt.create();
      const satdt = new SatdtClient(inProcessTransport(() => handler));
      const iss = await satdt.getSatellite(25544);
      expect(iss.epoch).toBe('2026-06-29T12:00:00.000Z');
      expect(iss.element_source).toMatchObject({ origin: 'archivo', location: file });
    } finally {
      if (saved === undefined) delete process.env.SATDT_ELEMENTS_FILE;
      else process.env.SATDT_ELEMENTS_FILE = saved;
    }
  });
});
