#!/usr/bin/env node
// `pnpm bench`: satdt-mcp and every other built server measured side by side with anchors, in one run,
// reported as ratios.
//
//   raw-echo   scripts/bench/anchors/raw-echo.mjs   the floor: readline + JSON.parse/stringify, no deps
//   bare-sdk   scripts/bench/anchors/bare-sdk.mjs   official SDK McpServer + StdioServerTransport, ESM
//   sdk-http   scripts/bench/anchors/sdk-http.mjs   official SDK Streamable HTTP, example style (HTTP rows)
//   satdt-mcp  apps/satdt/dist/satdt-mcp.cjs        the shipped bundle, embedded twin, no env
//   <app>-mcp  apps/*/dist/*-mcp.cjs                every other built server (cold start, six at once)
//
// Every server runs with a temporary CODE_CLUSTER_DATA_DIR and XDG_CACHE_HOME (so the V8 code cache of
// scripts/launcher.cjs is written by the first warm-up start, and read by every measured one).
//
// Machines are small, shared and noisy: every measurement alternates the subjects (A, B, C, A, B, C, …)
// so drift hits all of them alike, and the figures that matter are the ratios to the floor. Targets are
// printed beside the figures as PASS/MISS for information only; the exit code is 0 whatever they say.
//
// Options: --quick (fewer runs, a smoke test), --json <file> (raw samples and summaries).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { HttpSubject } from './lib/http-subject.mjs';
import { buildDomainBundle, removeDomainBundle, runPassesBench } from './lib/passes.mjs';
import { median, p90, p99, summary } from './lib/stats.mjs';
import { Subject } from './lib/subject.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

const usage = `usage: node scripts/bench/run.mjs [--quick] [--json <out.json>]
  --quick        fewer runs (smoke test, < 60 s)
  --json <file>  also write raw samples and summaries as JSON
`;

function parseArgs(argv) {
  const options = { quick: false, json: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue; // `pnpm bench -- --quick` passes the separator through
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') {
      options.json = argv[++i];
      if (!options.json) throw new Error('--json needs a file name');
    } else if (arg.startsWith('--json=')) options.json = arg.slice('--json='.length);
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(usage);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}\n${usage}`);
  }
  return options;
}

const options = parseArgs(process.argv.slice(2));

const PLAN = options.quick
  ? {
      coldWarmups: 1,
      coldRuns: 4,
      sixRounds: 1,
      callWarmups: 50,
      calls: 300,
      callBlock: 50,
      throughputSlices: 2,
      sliceMs: 300,
      httpCallWarmups: 50,
      httpCalls: 200,
      httpThroughputSlices: 2,
      httpSliceMs: 250,
      passesWarmups: 1,
      passesRuns: 3,
    }
  : {
      // Every built server takes part in cold start and six at once (eight subjects with six servers):
      // 20 runs and 6 rounds keep the full run under ~5 minutes on a loaded 2-core machine.
      coldWarmups: 2,
      coldRuns: 20,
      sixRounds: 6,
      callWarmups: 200,
      calls: 2000,
      callBlock: 100,
      throughputSlices: 6,
      sliceMs: 500,
      httpCallWarmups: 200,
      httpCalls: 2000,
      httpThroughputSlices: 6,
      httpSliceMs: 500,
      passesWarmups: 2,
      passesRuns: 10,
    };
const IDLE_WAIT_MS = 1000;
const IN_FLIGHT = 16;
const CALL = { name: 'satelite_info', args: { norad_id: 25544 } };
const STATION = { id: 'orbiteye-mx', latDeg: 19.4326, lonDeg: -99.1332, altM: 2240, maskDeg: 10 };
const PASSES_FROM_MS = Date.UTC(2026, 5, 27); // 2026-06-27T00:00Z
const PASSES_HOURS = 72;

const TARGETS = {
  coldStartRatio: 1.6,
  idleRssMB: 50,
  passesMs: 150,
  /** satdt-mcp's calls/s over Streamable HTTP, as a multiple of the SDK example server's. */
  httpThroughputRatio: 1,
};

const SATDT = 'satdt-mcp';
const SATDT_BUNDLE = resolve(root, 'apps/satdt/dist/satdt-mcp.cjs');

/** Every built server bin, apps/<app>/dist/<name>-mcp.cjs: satdt-mcp first, then by name. */
function discoverServers() {
  const servers = [];
  for (const app of readdirSync(join(root, 'apps'), { withFileTypes: true })) {
    if (!app.isDirectory()) continue;
    const dist = join(root, 'apps', app.name, 'dist');
    if (!existsSync(dist)) continue;
    for (const file of readdirSync(dist)) {
      if (file.endsWith('-mcp.cjs'))
        servers.push({ name: file.slice(0, -'.cjs'.length), bin: join(dist, file) });
    }
  }
  const rank = (s) => (s.name === SATDT ? '' : s.name);
  return servers.sort((a, b) => rank(a).localeCompare(rank(b)));
}

// One temporary directory per run: each server's CODE_CLUSTER_DATA_DIR, and XDG_CACHE_HOME for the V8 code
// cache of the bins (so every run starts without a cache, and the user's ~/.cache is left alone).
const TEMP = mkdtempSync(join(tmpdir(), 'code-cluster-bench-'));
const XDG_CACHE_HOME = join(TEMP, 'xdg-cache');
const CODE_CACHE_DIR = join(XDG_CACHE_HOME, 'code-cluster', 'v8');
const dataDir = (name) => {
  const dir = join(TEMP, 'data', name);
  mkdirSync(dir, { recursive: true });
  return dir;
};
const anchorEnv = { XDG_CACHE_HOME };
const serverEnv = (name) => ({ XDG_CACHE_HOME, CODE_CLUSTER_DATA_DIR: dataDir(name) });

const SERVERS = discoverServers();
const SUBJECTS = [
  {
    name: 'raw-echo',
    command: process.execPath,
    args: [resolve(here, 'anchors/raw-echo.mjs')],
    cwd: root,
    env: anchorEnv,
  },
  {
    name: 'bare-sdk',
    command: process.execPath,
    args: [resolve(here, 'anchors/bare-sdk.mjs')],
    cwd: root,
    env: anchorEnv,
  },
  ...SERVERS.flatMap((s) => {
    const server = { name: s.name, command: process.execPath, args: [s.bin], cwd: root, server: true };
    if (s.name !== SATDT) return [{ ...server, env: serverEnv(s.name) }];
    // satdt-mcp once more with the launcher's code cache switched off: what the cache saves, measured.
    return [
      { ...server, env: serverEnv(s.name) },
      {
        ...server,
        name: `${SATDT} (no V8 cache)`,
        env: { ...serverEnv(s.name), CODE_CLUSTER_CODE_CACHE: '0' },
      },
    ];
  }),
];
const FLOOR = SUBJECTS[0].name;
/** The subjects of the satdt-mcp table (latency, throughput, RSS): the two anchors and satdt-mcp. */
const MAIN = SUBJECTS.filter((s) => s.name === FLOOR || s.name === 'bare-sdk' || s.name === SATDT);

// Streamable HTTP: satdt-mcp with security on (bearer token; Host and Origin checks as by default) against
// the SDK's example-style server, each answering POSTs as SSE (both defaults) and as JSON.
const HTTP_TOKEN = randomBytes(24).toString('base64url');
const HTTP_SESSIONS = 16;
const HTTP_ANCHOR = 'sdk-http';
const HTTP_MODES = ['sse', 'json'];
const HTTP_SUBJECTS = HTTP_MODES.flatMap((mode) => [
  {
    key: `${HTTP_ANCHOR}/${mode}`,
    name: HTTP_ANCHOR,
    mode,
    command: process.execPath,
    args: [resolve(here, 'anchors/sdk-http.mjs'), '--port', '0', ...(mode === 'json' ? ['--json'] : [])],
    cwd: root,
    env: anchorEnv,
    origin: true,
    token: HTTP_TOKEN, // sent, and ignored: the example has no authentication
    connections: HTTP_SESSIONS,
  },
  {
    key: `${SATDT}/${mode}`,
    name: SATDT,
    mode,
    command: process.execPath,
    args: [SATDT_BUNDLE, '--transport', 'http', '--port', '0', '--http-response', mode],
    cwd: root,
    env: { ...serverEnv(SATDT), MCP_HTTP_TOKEN: HTTP_TOKEN },
    origin: true,
    token: HTTP_TOKEN,
    connections: HTTP_SESSIONS,
  },
]);

const began = performance.now();
const progress = (text) =>
  process.stderr.write(`bench: [${((performance.now() - began) / 1000).toFixed(0)} s] ${text}\n`);

// ── measurements ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Spawn → first byte of the initialize response; initialize is written right after spawn. The first
 * warm-up start of each bin writes its V8 code cache (at exit); that one sample is kept apart as `first`.
 */
async function coldStart() {
  const samples = Object.fromEntries(SUBJECTS.map((s) => [s.name, []]));
  const first = {};
  const total = PLAN.coldWarmups + PLAN.coldRuns;
  for (let run = 0; run < total; run++) {
    for (const spec of SUBJECTS) {
      const s = new Subject(spec);
      try {
        await s.initialize();
        if (run === 0) first[spec.name] = s.firstByteAt - s.startedAt;
        if (run >= PLAN.coldWarmups) samples[spec.name].push(s.firstByteAt - s.startedAt);
      } finally {
        await s.stop();
      }
    }
  }
  return { samples, first, codeCache: codeCacheFiles() };
}

/** The V8 code cache files the bins wrote under $XDG_CACHE_HOME/code-cluster/v8. */
function codeCacheFiles() {
  if (!existsSync(CODE_CACHE_DIR)) return [];
  return readdirSync(CODE_CACHE_DIR).filter((f) => f.endsWith('.bin'));
}

/** Six processes of one subject at once: spawn → all six answered tools/list. */
async function sixAtOnce() {
  const samples = Object.fromEntries(SUBJECTS.map((s) => [s.name, []]));
  for (let round = 0; round < PLAN.sixRounds; round++) {
    for (const spec of SUBJECTS) {
      const start = performance.now();
      const six = Array.from({ length: 6 }, () => new Subject(spec));
      try {
        await Promise.all(
          six.map(async (s) => {
            await s.initialize();
            await s.request('tools/list', {});
          }),
        );
        samples[spec.name].push(performance.now() - start);
      } finally {
        await Promise.all(six.map((s) => s.stop()));
      }
    }
  }
  return samples;
}

async function sequentialCalls(s, count, into) {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await s.callTool(CALL.name, CALL.args);
    if (into) into.push(performance.now() - start);
    if (result.isError) throw new Error(`${s.spec.name}: ${CALL.name} answered isError`);
  }
}

/** IN_FLIGHT callers, each sending its next call when its previous one is answered, for `ms`. */
async function throughputSlice(s, ms) {
  const start = performance.now();
  let calls = 0;
  const caller = async () => {
    while (performance.now() - start < ms) {
      await s.callTool(CALL.name, CALL.args);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
  return { calls, ms: performance.now() - start };
}

/** One long-lived process per subject: idle RSS, call latency, throughput, RSS after load. */
async function underLoad() {
  const live = MAIN.map((spec) => new Subject(spec));
  try {
    for (const s of live) await s.initialize();
    await sleep(IDLE_WAIT_MS);
    const idleRss = Object.fromEntries(live.map((s) => [s.spec.name, s.rssBytes()]));

    progress(`tools/call latency: ${PLAN.callWarmups} warm-up + ${PLAN.calls} sequential calls each`);
    const latency = Object.fromEntries(live.map((s) => [s.spec.name, []]));
    const blocks = (n) => Math.ceil(n / PLAN.callBlock);
    for (let b = 0; b < blocks(PLAN.callWarmups); b++) {
      for (const s of live)
        await sequentialCalls(s, Math.min(PLAN.callBlock, PLAN.callWarmups - b * PLAN.callBlock));
    }
    for (let b = 0; b < blocks(PLAN.calls); b++) {
      for (const s of live) {
        await sequentialCalls(
          s,
          Math.min(PLAN.callBlock, PLAN.calls - b * PLAN.callBlock),
          latency[s.spec.name],
        );
      }
    }

    progress(`throughput: ${IN_FLIGHT} in flight, ${PLAN.throughputSlices} × ${PLAN.sliceMs} ms each`);
    const throughput = Object.fromEntries(live.map((s) => [s.spec.name, []]));
    for (let slice = 0; slice < PLAN.throughputSlices; slice++) {
      for (const s of live) throughput[s.spec.name].push(await throughputSlice(s, PLAN.sliceMs));
    }

    const loadedRss = Object.fromEntries(live.map((s) => [s.spec.name, s.rssBytes()]));
    return { idleRss, latency, throughput, loadedRss };
  } finally {
    await Promise.all(live.map((s) => s.stop()));
  }
}

/**
 * Streamable HTTP, one long-lived process per HTTP subject: one session for sequential calls, then
 * HTTP_SESSIONS sessions (one per concurrent worker) for throughput; subjects interleaved in blocks and
 * slices as on stdio.
 */
async function overHttp() {
  const live = HTTP_SUBJECTS.map((spec) => new HttpSubject(spec));
  const keys = HTTP_SUBJECTS.map((s) => s.key);
  const per = (make) => Object.fromEntries(keys.map((k) => [k, make()]));
  try {
    await Promise.all(live.map((s) => s.start()));
    // Sessions opened interleaved too; each open is timed (initialize + notifications/initialized).
    const sessionOpen = per(() => []);
    const sessions = per(() => []);
    for (let i = 0; i < HTTP_SESSIONS + 1; i++) {
      for (const s of live) {
        const start = performance.now();
        sessions[s.spec.key].push(await s.openSession());
        sessionOpen[s.spec.key].push(performance.now() - start);
      }
    }

    progress(
      `http tools/call latency: ${PLAN.httpCallWarmups} warm-up + ${PLAN.httpCalls} sequential calls each`,
    );
    const sequential = async (session, count, into) => {
      for (let i = 0; i < count; i++) {
        const start = performance.now();
        await session.callTool(CALL.name, CALL.args);
        into?.push(performance.now() - start);
      }
    };
    const latency = per(() => []);
    const blocks = (n) => Math.ceil(n / PLAN.callBlock);
    for (let b = 0; b < blocks(PLAN.httpCallWarmups); b++) {
      for (const s of live) {
        const n = Math.min(PLAN.callBlock, PLAN.httpCallWarmups - b * PLAN.callBlock);
        await sequential(sessions[s.spec.key][0], n);
      }
    }
    for (let b = 0; b < blocks(PLAN.httpCalls); b++) {
      for (const s of live) {
        const n = Math.min(PLAN.callBlock, PLAN.httpCalls - b * PLAN.callBlock);
        await sequential(sessions[s.spec.key][0], n, latency[s.spec.key]);
      }
    }

    progress(
      `http throughput: ${HTTP_SESSIONS} sessions, ${PLAN.httpThroughputSlices} × ${PLAN.httpSliceMs} ms each`,
    );
    const throughput = per(() => []);
    const slice = async (s) => {
      const start = performance.now();
      let calls = 0;
      const worker = async (session) => {
        while (performance.now() - start < PLAN.httpSliceMs) {
          await session.callTool(CALL.name, CALL.args);
          calls++;
        }
      };
      await Promise.all(sessions[s.spec.key].slice(1).map(worker));
      return { calls, ms: performance.now() - start };
    };
    for (let i = 0; i < PLAN.httpThroughputSlices; i++) {
      for (const s of live) throughput[s.spec.key].push(await slice(s));
    }
    const loadedRss = Object.fromEntries(live.map((s) => [s.spec.key, s.rssBytes()]));
    return { sessionOpen, latency, throughput, loadedRss };
  } catch (error) {
    const tails = live.map((s) => `--- ${s.spec.key} stderr:\n${s.stderr}`).join('\n');
    throw new Error(`${error.message}\n${tails}`, { cause: error });
  } finally {
    await Promise.all(live.map((s) => s.stop()));
  }
}

async function passes() {
  await buildDomainBundle();
  try {
    return await runPassesBench({
      runs: PLAN.passesRuns,
      warmups: PLAN.passesWarmups,
      station: STATION,
      fromMs: PASSES_FROM_MS,
      hours: PASSES_HOURS,
    });
  } finally {
    removeDomainBundle();
  }
}

// ── report ───────────────────────────────────────────────────────────────────────────────────────────

const ms = (v) => (v >= 100 ? `${v.toFixed(0)} ms` : `${v.toFixed(1)} ms`);
const us = (v) => `${(v * 1000).toFixed(0)} µs`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const perS = (v) => `${Math.round(v).toLocaleString('en-US')}/s`;
const ratio = (v, floor) => `${(v / floor).toFixed(2)}×`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell ?? '').padStart(widths[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const callsPerSecond = (slices) =>
  slices.reduce((a, s) => a + s.calls, 0) / (slices.reduce((a, s) => a + s.ms, 0) / 1000);

function report(results) {
  const names = MAIN.map((s) => s.name);
  const rows = [['', ...names.flatMap((n) => [n, '×floor']), 'target']];
  /** One row: `values` per subject, `fmt` to print, `target` (optional) judged on satdt-mcp. */
  const row = (label, values, fmt, target) => {
    const floor = values[FLOOR];
    rows.push([
      label,
      ...names.flatMap((n) => [fmt(values[n]), ratio(values[n], floor)]),
      target ? target(values) : '',
    ]);
  };
  const pick = (samples, stat) => Object.fromEntries(names.map((n) => [n, stat(samples[n])]));

  const cold = results.coldStart.samples;
  row('cold start median', pick(cold, median), ms, (v) => {
    const r = v['satdt-mcp'] / v[FLOOR];
    return `≤ ${TARGETS.coldStartRatio}× ${verdict(r <= TARGETS.coldStartRatio)}`;
  });
  row('cold start p90', pick(cold, p90), ms);
  row('six at once median', pick(results.sixAtOnce, median), ms);
  row('six at once p90', pick(results.sixAtOnce, p90), ms);
  const load = results.underLoad;
  row('tools/call p50', pick(load.latency, median), us);
  row('tools/call p99', pick(load.latency, p99), us);
  const rate = Object.fromEntries(names.map((n) => [n, callsPerSecond(load.throughput[n])]));
  row(`throughput (${IN_FLIGHT} in flight)`, rate, perS);
  row('RSS idle', load.idleRss, mb, (v) => {
    const m = v['satdt-mcp'] / 1024 / 1024;
    return `≤ ${TARGETS.idleRssMB} MB ${verdict(m <= TARGETS.idleRssMB)}`;
  });
  row('RSS after load', load.loadedRss, mb);

  const p = results.passes;
  const pm = median(p.times);
  const passesLine =
    `twin: passes of the whole catalog (${p.satellites} satellites, ${p.passes} passes, ${p.errors} errors) ` +
    `over ${PASSES_HOURS} h at ${STATION.id}: median ${ms(pm)}, p90 ${ms(p90(p.times))} ` +
    `(${p.times.length} runs)  target < ${TARGETS.passesMs} ms ${verdict(pm < TARGETS.passesMs)}` +
    `\n      loadCatalog (first call, cold): ${ms(p.loadCatalogMs)}`;

  const m = results.machine;
  return [
    `satdt-mcp bench${options.quick ? ' (--quick)' : ''}: Node ${m.node}, ${m.cores} cores (${m.cpu}), ` +
      `load average ${m.loadBefore.toFixed(2)} → ${m.loadAfter.toFixed(2)}`,
    `runs: cold start ${PLAN.coldRuns} (+${PLAN.coldWarmups} warm-up), six at once ${PLAN.sixRounds}, ` +
      `calls ${PLAN.calls} (+${PLAN.callWarmups}), throughput ${PLAN.throughputSlices} × ${PLAN.sliceMs} ms; ` +
      `subjects interleaved; ×floor = value / ${FLOOR}`,
    '',
    table(rows),
    '',
    passesLine,
    '',
    serversReport(results),
    '',
    httpReport(results.http),
    '',
    'targets are informational (PASS/MISS); the exit code does not depend on them.',
  ].join('\n');
}

/** Cold start and six at once of every subject, one row each. */
function serversReport(results) {
  const { samples, first, codeCache } = results.coldStart;
  const six = results.sixAtOnce;
  const floor = { cold: median(samples[FLOOR]), coldP90: p90(samples[FLOOR]) };
  floor.six = median(six[FLOOR]);
  floor.sixP90 = p90(six[FLOOR]);
  const rows = [
    [
      '',
      'cold start median',
      '×floor',
      'p90',
      '×floor',
      'six at once median',
      '×floor',
      'p90',
      '×floor',
      'target (cold ≤ 1.6×)',
    ],
  ];
  for (const spec of SUBJECTS) {
    const n = spec.name;
    const cold = median(samples[n]);
    const r = cold / floor.cold;
    rows.push([
      n,
      ms(cold),
      ratio(cold, floor.cold),
      ms(p90(samples[n])),
      ratio(p90(samples[n]), floor.coldP90),
      ms(median(six[n])),
      ratio(median(six[n]), floor.six),
      ms(p90(six[n])),
      ratio(p90(six[n]), floor.sixP90),
      spec.server ? verdict(r <= TARGETS.coldStartRatio) : '',
    ]);
  }
  const firsts = SUBJECTS.filter((s) => s.server && s.env.CODE_CLUSTER_CODE_CACHE !== '0')
    .map((s) => `${s.name} ${ms(first[s.name])}`)
    .join(', ');
  return [
    `every server: cold start (${PLAN.coldRuns} runs) and six at once (${PLAN.sixRounds} round${PLAN.sixRounds === 1 ? '' : 's'}), ` +
      `each with a temporary CODE_CLUSTER_DATA_DIR`,
    '',
    table(rows),
    '',
    `V8 code cache: the first warm-up start of each bin wrote it (${codeCache.length} file(s) under ` +
      `$XDG_CACHE_HOME/code-cluster/v8); every measured start read it, except ` +
      `"${SATDT} (no V8 cache)", which runs with CODE_CLUSTER_CODE_CACHE=0.`,
    `      that first start, writing the cache (one sample each, noisy): ${firsts}`,
  ].join('\n');
}

/** Streamable HTTP: satdt-mcp (security on) against sdk-http, per answer mode. */
function httpReport(http) {
  const rows = [['', HTTP_ANCHOR, SATDT, `×${HTTP_ANCHOR}`, 'target']];
  const row = (label, mode, values, fmt, target) => {
    const anchor = values[`${HTTP_ANCHOR}/${mode}`];
    const satdt = values[`${SATDT}/${mode}`];
    rows.push([label, fmt(anchor), fmt(satdt), ratio(satdt, anchor), target ? target(satdt / anchor) : '']);
  };
  const pick = (samples, stat) => Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stat(v)]));
  const rate = Object.fromEntries(Object.entries(http.throughput).map(([k, v]) => [k, callsPerSecond(v)]));
  for (const mode of HTTP_MODES) {
    rows.push([mode === 'sse' ? 'answers as SSE (default)' : 'answers as JSON']);
    row('  session open median', mode, pick(http.sessionOpen, median), ms);
    row('  tools/call p50', mode, pick(http.latency, median), us);
    row('  tools/call p99', mode, pick(http.latency, p99), us);
    row(
      `  throughput (${HTTP_SESSIONS} sessions)`,
      mode,
      rate,
      perS,
      (r) => `≥ ${TARGETS.httpThroughputRatio.toFixed(2)}× ${verdict(r >= TARGETS.httpThroughputRatio)}`,
    );
    row('  RSS after load', mode, http.loadedRss, mb);
  }
  return [
    `Streamable HTTP: ${SATDT} with a bearer token and its default Host/Origin checks, against ${HTTP_ANCHOR} ` +
      `(the SDK's example server: Host check only); every request carries a loopback Origin and the token`,
    `runs: ${PLAN.httpCalls} sequential calls (+${PLAN.httpCallWarmups}) on one session, then ` +
      `${HTTP_SESSIONS} sessions × 1 call in flight, ${PLAN.httpThroughputSlices} × ${PLAN.httpSliceMs} ms; ` +
      `undici Pool (${HTTP_SESSIONS} connections); ×${HTTP_ANCHOR} = ${SATDT} / ${HTTP_ANCHOR}`,
    '',
    table(rows),
  ].join('\n');
}

// ── main ─────────────────────────────────────────────────────────────────────────────────────────────

async function main() {
  if (!existsSync(SATDT_BUNDLE)) {
    throw new Error(
      `${SATDT_BUNDLE} is missing: build it first (pnpm bench does; or cd apps/satdt && pnpm build)`,
    );
  }
  const started = performance.now();
  const machine = {
    node: process.versions.node,
    cores: cpus().length,
    cpu: cpus()[0]?.model?.trim() ?? 'unknown',
    memGB: +(totalmem() / 1024 ** 3).toFixed(1),
    loadBefore: loadavg()[0],
    loadAfter: Number.NaN,
  };
  progress(`servers: ${SUBJECTS.map((s) => s.name).join(', ')}`);
  progress(`cold start: ${PLAN.coldWarmups} warm-up + ${PLAN.coldRuns} runs per subject, interleaved`);
  const cold = await coldStart();
  progress(`six at once: ${PLAN.sixRounds} rounds per subject, interleaved`);
  const six = await sixAtOnce();
  progress('long-lived processes: idle RSS after initialize + 1 s');
  const load = await underLoad();
  progress(`streamable HTTP: ${HTTP_SUBJECTS.map((s) => s.key).join(', ')}`);
  const http = await overHttp();
  progress(`twin: whole-catalog passes, ${PLAN.passesWarmups} warm-up + ${PLAN.passesRuns} runs`);
  const passesResult = await passes();
  machine.loadAfter = loadavg()[0];

  const results = {
    machine,
    plan: PLAN,
    coldStart: cold,
    sixAtOnce: six,
    underLoad: load,
    http,
    passes: passesResult,
  };
  process.stdout.write(`${report(results)}\n`);
  progress(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  if (options.json) {
    const names = SUBJECTS.map((s) => s.name);
    const relative = (args) => args.map((a) => a.replace(`${root}/`, ''));
    const out = {
      ...results,
      subjects: SUBJECTS.map((s) => ({ name: s.name, args: relative(s.args) })),
      httpSubjects: HTTP_SUBJECTS.map((s) => ({ key: s.key, args: relative(s.args) })),
      summary: {
        coldStartMs: Object.fromEntries(names.map((n) => [n, summary(cold.samples[n])])),
        sixAtOnceMs: Object.fromEntries(names.map((n) => [n, summary(six[n])])),
        callLatencyMs: Object.fromEntries(MAIN.map((s) => [s.name, summary(load.latency[s.name])])),
        httpCallLatencyMs: Object.fromEntries(Object.entries(http.latency).map(([k, v]) => [k, summary(v)])),
        httpCallsPerSecond: Object.fromEntries(
          Object.entries(http.throughput).map(([k, v]) => [k, callsPerSecond(v)]),
        ),
        passesMs: summary(passesResult.times),
      },
      targets: TARGETS,
    };
    writeFileSync(resolve(process.cwd(), options.json), `${JSON.stringify(out, null, 2)}\n`);
    progress(`raw results written to ${options.json}`);
  }
}

const removeTemp = () => rmSync(TEMP, { recursive: true, force: true });
process.once('SIGINT', () => {
  removeTemp();
  process.exit(130);
});
main().then(removeTemp, (error) => {
  process.stderr.write(`bench: ${error?.stack ?? error}\n`);
  removeTemp();
  process.exit(1);
});
