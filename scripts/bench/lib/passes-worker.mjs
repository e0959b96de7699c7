// Child process of lib/passes.mjs: times findPassesForCatalog on the bundled satellite-twin domain.
// argv[2]: JSON { bundle, runs, warmups, station, fromMs, hours }. Writes one JSON line to stdout.
import { createRequire } from 'node:module';

const { bundle, runs, warmups, station, fromMs, hours } = JSON.parse(process.argv[2]);
const { loadCatalog, findPassesForCatalog, CATALOG_TLE } = createRequire(import.meta.url)(bundle);

const t0 = performance.now();
const catalog = loadCatalog(CATALOG_TLE);
const loadCatalogMs = performance.now() - t0;
const toMs = fromMs + hours * 3_600_000;

let last;
for (let i = 0; i < warmups; i++) last = findPassesForCatalog(catalog, station, fromMs, toMs);
const times = [];
for (let i = 0; i < runs; i++) {
  const start = performance.now();
  last = findPassesForCatalog(catalog, station, fromMs, toMs);
  times.push(performance.now() - start);
}

let passes = 0;
let errors = 0;
for (const result of last.values()) {
  if (result instanceof Error) errors++;
  else if (result.visibility === 'passes') passes += result.passes.length;
}
process.stdout.write(
  `${JSON.stringify({ times, satellites: catalog.size, passes, errors, loadCatalogMs })}\n`,
);
