#!/usr/bin/env node
// `pnpm bench`: satdt-mcp and every other built server measured side by side with anchors, in one run,
// reported as ratios.
//
//   raw-echo   scripts/bench/anchors/raw-echo.mjs   the floor: readline + JSON.parse/stringify, no deps
//   bare-sdk   scripts/bench/anchors/bare-sdk.mjs   official SDK McpServer + StdioServerTransport, ESM
//   everything @modelcontextprotocol/server-everything (pinned in scripts/bench/everything, installed
//              into .tools/bench): the reference server a user would try first; calls/s on its echo tool
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
// Every subject runs without NODE_OPTIONS, NODE_EXTRA_CA_CERTS and any server setting (lib/subject.mjs);
// the report's first lines say which variables were removed, and the machine's load.
//
// Options: --quick (fewer runs, a smoke test), --json <file> (raw samples and summaries), --profile
// <subject> (a CPU profile of one subject under the throughput load, summarised by package and function).
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ensurePinned } from '../lib/pinned.mjs';
import { benchDatabase, deleteStream, enginesReport, runEnginesBench } from './lib/engines.mjs';
import { HttpSubject } from './lib/http-subject.mjs';
import { buildDomainBundle, removeDomainBundle, runPassesBench } from './lib/passes.mjs';
import { summariseProfile } from './lib/profile.mjs';
import { median, p90, p99, summary } from './lib/stats.mjs';
import { removedVariables, Subject } from './lib/subject.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

const usage = `usage: node scripts/bench/run.mjs [--quick] [--json <out.json>] [--profile <subject>]
  --quick              fewer runs (smoke test, < 60 s)
  --json <file>        also write raw samples and summaries as JSON
  --profile <subject>  only profile one subject (satdt, bare-sdk, everything, raw-echo, hub, …) under the
                       throughput load with --cpu-prof: self time by package and the top functions; the
                       profile itself is kept in .bench/<subject>.cpuprofile
`;

function parseArgs(argv) {
  const options = { quick: false, json: undefined, profile: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') continue; // `pnpm bench -- --quick` passes the separator through
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') {
      options.json = argv[++i];
      if (!options.json) throw new Error('--json needs a file name');
    } else if (arg.startsWith('--json=')) options.json = arg.slice('--json='.length);
    else if (arg === '--profile') {
      options.profile = argv[++i];
      if (!options.profile) throw new Error('--profile needs a subject name');
    } else if (arg.startsWith('--profile=')) options.profile = arg.slice('--profile='.length);
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
      profileWarmups: 200,
      profileMs: 2000,
      engines: { sessions: 8, slices: 2, sliceMs: 300, noticeRounds: 10 },
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
      profileWarmups: 1000,
      profileMs: 8000,
      engines: { sessions: 8, slices: 6, sliceMs: 500, noticeRounds: 50 },
    };
const IDLE_WAIT_MS = 1000;
const IN_FLIGHT = 16;
const CALL = { name: 'satelite_info', args: { norad_id: 25544 } };
const STATION = { id: 'orbiteye-mx', latDeg: 19.4326, lonDeg: -99.1332, altM: 2240, maskDeg: 10 };
const PASSES_FROM_MS = Date.UTC(2026, 5, 27); // 2026-06-27T00:00Z
const PASSES_HOURS = 72;

/** Issue 17's targets. Ratios: satdt-mcp (or every server) / its anchor. */
const TARGETS = {
  /** Cold start of every server, as a multiple of the floor's. */
  coldStartRatio: 1.3,
  /** The six servers started together until all answered tools/list, as a multiple of six floors. */
  sixServersRatio: 1.3,
  /** stdio calls/s (16 in flight), as a multiple of bare-sdk's. */
  callsRatio: 1.5,
  /** stdio tools/call p50 and p99, as a multiple of bare-sdk's. */
  latencyRatio: 0.7,
  /** Streamable HTTP calls/s, as a multiple of the SDK example server's (SSE and JSON). */
  httpThroughputRatio: 1.5,
  idleRssMB: 48,
  passesMs: 150,
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

// The third-party anchor, outside the workspace: installed from its committed lockfile on first use.
const EVERYTHING_PREFIX = join(root, '.tools/bench');
ensurePinned({
  sourceDir: join(here, 'everything'),
  prefix: EVERYTHING_PREFIX,
  log: (text) => process.stderr.write(`bench: ${text}\n`),
  what: 'bench anchors',
});
const EVERYTHING = 'everything';

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
  {
    name: EVERYTHING,
    command: process.execPath,
    args: [
      join(EVERYTHING_PREFIX, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'),
      'stdio',
    ],
    cwd: root,
    env: anchorEnv,
    call: { name: 'echo', args: { message: 'satélite 25544: ok' } },
    // It stays up when stdin closes; its SIGINT handler closes it (and lets --cpu-prof write).
    stopSignal: 'SIGINT',
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
/** The subjects of the satdt-mcp table (latency, throughput, RSS): the three anchors and satdt-mcp. */
const MAIN = SUBJECTS.filter((s) => [FLOOR, 'bare-sdk', EVERYTHING, SATDT].includes(s.name));
/** Every server once (no cache variants): the cluster a host starts together. */
const CLUSTER = SUBJECTS.filter((s) => s.server && s.env.CODE_CLUSTER_CODE_CACHE !== '0');
const CLUSTER_NAME = `the ${CLUSTER.length} servers`;

// Streamable HTTP: satdt-mcp with security on (bearer token; Host and Origin checks as by default) against
// the SDK's example-style server, each answering POSTs as SSE (both defaults) and as JSON.
const HTTP_TOKEN = randomBytes(24).toString('base64url');
const HTTP_SESSIONS = 16;
const HTTP_ANCHOR = 'sdk-http';
const HTTP_MODES = ['sse', 'json'];
const serverBin = (name) => {
  const server = SERVERS.find((s) => s.name === name);
  if (!server) throw new Error(`${name} is not built: pnpm bench builds every server first`);
  return server.bin;
};

const BENCH_STREAM = `BENCH_HUB_${randomBytes(4).toString('hex')}`;
const BOOKINGS_FROM_MS = Date.now() + 24 * 3_600_000;
let benchDb;
// Scale-out engines: each case one server, its SQLite default and its engine, the same write tool.
const ENGINE_CASES = [
  {
    label: 'hub-mcp publicar_evento',
    engine: 'nats',
    server: 'hub-mcp',
    bin: serverBin('hub-mcp'),
    tool: 'publicar_evento',
    args: (i) => ({ topico: 'bench', tipo: 'n', datos: { i } }),
    sqliteEnv: () => serverEnv('hub-sqlite'),
    engineEnv: async (url) => ({
      ...serverEnv('hub-nats'),
      HUB_NATS_URL: url,
      HUB_NATS_STREAM: BENCH_STREAM,
    }),
    cleanup: (url) => deleteStream(url, BENCH_STREAM),
  },
  {
    label: 'groundstation-mcp agendar_contacto',
    engine: 'postgres',
    server: 'groundstation-mcp',
    bin: serverBin('groundstation-mcp'),
    tool: 'agendar_contacto',
    // One-minute windows one after another from a day ahead, on a geostationary satellite always above
    // orbiteye-mx's mask (MEXSAT 3): every booking is valid, none overlaps another.
    args: (i) => ({
      estacion: 'orbiteye-mx',
      norad_id: 39035,
      inicio: new Date(BOOKINGS_FROM_MS + i * 61_000).toISOString(),
      fin: new Date(BOOKINGS_FROM_MS + i * 61_000 + 60_000).toISOString(),
    }),
    sqliteEnv: () => serverEnv('groundstation-sqlite'),
    engineEnv: async (adminUrl) => {
      benchDb = await benchDatabase(adminUrl);
      return { ...serverEnv('groundstation-postgres'), GROUNDSTATION_DATABASE_URL: benchDb.url };
    },
    cleanup: () => benchDb?.drop(),
  },
];

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

/** Every spec's process started together: spawn → all answered tools/list (ms). */
async function startTogether(specs) {
  const start = performance.now();
  const live = specs.map((spec) => new Subject(spec));
  try {
    await Promise.all(
      live.map(async (s) => {
        await s.initialize();
        await s.request('tools/list', {});
      }),
    );
    return performance.now() - start;
  } finally {
    await Promise.all(live.map((s) => s.stop()));
  }
}

/**
 * Six processes of one subject at once: spawn → all six answered tools/list. Each round ends with every
 * server of the cluster started together (one process each), as a host starts its configured servers.
 */
async function sixAtOnce() {
  const samples = Object.fromEntries([...SUBJECTS.map((s) => s.name), CLUSTER_NAME].map((n) => [n, []]));
  for (let round = 0; round < PLAN.sixRounds; round++) {
    for (const spec of SUBJECTS) samples[spec.name].push(await startTogether(Array(6).fill(spec)));
    samples[CLUSTER_NAME].push(await startTogether(CLUSTER));
  }
  return samples;
}

async function sequentialCalls(s, count, into) {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await s.benchCall(CALL);
    if (into) into.push(performance.now() - start);
    if (result.isError) throw new Error(`${s.spec.name}: its benchmark call answered isError`);
  }
}

/** IN_FLIGHT callers, each sending its next call when its previous one is answered, for `ms`. */
async function throughputSlice(s, ms) {
  const start = performance.now();
  const cpuBefore = s.cpuMs();
  let calls = 0;
  const caller = async () => {
    while (performance.now() - start < ms) {
      await s.benchCall(CALL);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
  return { calls, ms: performance.now() - start, cpuMs: s.cpuMs() - cpuBefore };
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
      const cpuBefore = s.cpuMs();
      let calls = 0;
      const worker = async (session) => {
        while (performance.now() - start < PLAN.httpSliceMs) {
          await session.callTool(CALL.name, CALL.args);
          calls++;
        }
      };
      await Promise.all(sessions[s.spec.key].slice(1).map(worker));
      return { calls, ms: performance.now() - start, cpuMs: s.cpuMs() - cpuBefore };
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

/**
 * One subject under --cpu-prof: initialize, warm-up calls, then the throughput load for PLAN.profileMs;
 * only the samples of that load are summarised (the profile's clock is process.hrtime's).
 */
async function profileSubject(wanted) {
  const spec = SUBJECTS.find((s) => s.name === wanted || s.name === `${wanted}-mcp`);
  if (!spec) {
    throw new Error(`--profile: no subject ${wanted} (one of ${SUBJECTS.map((s) => s.name).join(', ')})`);
  }
  const dir = join(TEMP, 'profile');
  mkdirSync(dir, { recursive: true });
  const s = new Subject({
    ...spec,
    args: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250', ...spec.args],
  });
  let loaded;
  try {
    await s.initialize();
    progress(
      `profile ${spec.name}: ${PLAN.profileWarmups} warm-up calls, then ${IN_FLIGHT} in flight for ${PLAN.profileMs} ms`,
    );
    await sequentialCalls(s, PLAN.profileWarmups);
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    loaded = { fromUs, ...(await throughputSlice(s, PLAN.profileMs)) };
  } finally {
    await s.stop(15_000);
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${spec.name} wrote no .cpuprofile (stderr: ${s.stderr})`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const kept = join(root, '.bench', `${spec.name.replace(/[^\w.-]+/g, '_')}.cpuprofile`);
  mkdirSync(dirname(kept), { recursive: true });
  copyFileSync(join(dir, file), kept);
  return { spec, loaded, summary: summariseProfile(profile, loaded.fromUs), kept };
}

function profileReport({ spec, loaded, summary: p, kept }) {
  const pct = (share) => `${(share * 100).toFixed(1)} %`;
  const packages = [
    ['package', 'self ms', 'share'],
    ...p.packages.map((x) => [x.name, x.ms.toFixed(0), pct(x.share)]),
  ];
  const top = p.functions.slice(0, 25);
  const functions = [
    ['share', 'self ms', 'package', 'function (source:line)'],
    ...top.map((f) => [pct(f.share), f.ms.toFixed(0), f.package, f.name]),
  ];
  return [
    `${environmentLine()}`,
    `profile of ${spec.name} (${spec.call?.name ?? CALL.name}), ${IN_FLIGHT} in flight for ${(loaded.ms / 1000).toFixed(1)} s under --cpu-prof ` +
      `(250 µs sampling): ${loaded.calls} calls, ${perS(loaded.calls / (loaded.ms / 1000))} (slowed by the profiler)`,
    `busy ${p.totalMs.toFixed(0)} ms, idle ${p.idleMs.toFixed(0)} ms; self time (a function's own, not its callees') by package:`,
    '',
    table(packages),
    '',
    'top functions by self time:',
    '',
    leftTable(functions),
    '',
    `full profile: ${kept.replace(`${root}/`, '')} (open in Chrome DevTools → Performance, or speedscope)`,
  ].join('\n');
}

// ── report ───────────────────────────────────────────────────────────────────────────────────────────

const ms = (v) => (v >= 100 ? `${v.toFixed(0)} ms` : `${v.toFixed(1)} ms`);
const us = (v) => `${(v * 1000).toFixed(0)} µs`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const perS = (v) => `${Math.round(v).toLocaleString('en-US')}/s`;
const ratio = (v, floor) => `${(v / floor).toFixed(2)}×`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/** Like table(), every column left-aligned but the first two. */
function leftTable(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c < 2 ? String(cell).padStart(widths[c]) : String(cell ?? '').padEnd(widths[c])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

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
/** The server's CPU time per call over the throughput slices, in ms (µs once formatted by `us`). */
const cpuPerCall = (slices) =>
  slices.reduce((a, s) => a + s.cpuMs, 0) / slices.reduce((a, s) => a + s.calls, 0);

function report(results) {
  const names = MAIN.map((s) => s.name);
  const rows = [['', ...names.flatMap((n) => [n, '×floor'])]];
  /** One row: `values` per subject, `fmt` to print. */
  const row = (label, values, fmt) => {
    const floor = values[FLOOR];
    rows.push([label, ...names.flatMap((n) => [fmt(values[n]), ratio(values[n], floor)])]);
  };
  const pick = (samples, stat) => Object.fromEntries(names.map((n) => [n, stat(samples[n])]));

  const cold = results.coldStart.samples;
  row('cold start median', pick(cold, median), ms);
  row('cold start p90', pick(cold, p90), ms);
  row('six at once median', pick(results.sixAtOnce, median), ms);
  row('six at once p90', pick(results.sixAtOnce, p90), ms);
  const load = results.underLoad;
  row('tools/call p50', pick(load.latency, median), us);
  row('tools/call p99', pick(load.latency, p99), us);
  const rate = Object.fromEntries(names.map((n) => [n, callsPerSecond(load.throughput[n])]));
  row(`throughput (${IN_FLIGHT} in flight)`, rate, perS);
  row('CPU per call (same load)', pick(load.throughput, cpuPerCall), us);
  row('RSS idle', load.idleRss, mb);
  row('RSS after load', load.loadedRss, mb);

  const p = results.passes;
  const pm = median(p.times);
  const passesLine =
    `twin: passes of the whole catalog (${p.satellites} satellites, ${p.passes} passes, ${p.errors} errors) ` +
    `over ${PASSES_HOURS} h at ${STATION.id}: median ${ms(pm)}, p90 ${ms(p90(p.times))} ` +
    `(${p.times.length} runs)  target < ${TARGETS.passesMs} ms ${verdict(pm < TARGETS.passesMs)}` +
    `\n      loadCatalog (first call, cold): ${ms(p.loadCatalogMs)}`;

  return [
    `satdt-mcp bench${options.quick ? ' (--quick)' : ''}: ${environmentLine(results.machine)}`,
    '',
    targetsReport(results),
    '',
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
    enginesReport(results.engines, { perS, ms }),
    '',
    'targets are informational (PASS/MISS); the exit code does not depend on them.',
  ].join('\n');
}

/** The machine (load average before and, once known, after) and what every subject ran without. */
function environmentLine(m = machineInfo()) {
  const load = (l) => l.map((x) => x.toFixed(2)).join(' / ');
  const removed = removedVariables();
  return [
    `Node ${m.node}, ${m.cores} CPUs (${m.cpu}), ${m.memGB} GB; load average (1 / 5 / 15 min) ` +
      `${load(m.loadBefore)}${m.loadAfter ? ` before → ${load(m.loadAfter)} after` : ''}`,
    `removed from every subject's environment: ${removed.length > 0 ? removed.join(', ') : '(none were set)'}` +
      " (NODE_OPTIONS, NODE_EXTRA_CA_CERTS and the servers' settings, whenever set)",
  ].join('\n');
}

function machineInfo() {
  return {
    node: process.versions.node,
    cores: cpus().length,
    cpu: cpus()[0]?.model?.trim() ?? 'unknown',
    memGB: +(totalmem() / 1024 ** 3).toFixed(1),
    loadBefore: loadavg(),
    loadAfter: undefined,
  };
}

/** Every row of issue 17's table: the figure, its anchor, the ratio and the target, PASS/MISS. */
function targetsReport(results) {
  const rows = [['figure', 'measured', 'anchor', 'ratio', 'target', '']];
  const judge = (label, value, anchorLabel, anchor, fmt, r, ok, target) =>
    rows.push([label, fmt(value), `${anchorLabel} ${fmt(anchor)}`, `${r.toFixed(2)}×`, target, verdict(ok)]);
  const atMost = (label, value, anchorLabel, anchor, fmt, bound, target = `≤ ${bound}×`) => {
    const r = value / anchor;
    judge(label, value, anchorLabel, anchor, fmt, r, r <= bound, target);
  };
  const atLeast = (label, value, anchorLabel, anchor, fmt, bound) => {
    const r = value / anchor;
    judge(label, value, anchorLabel, anchor, fmt, r, r >= bound, `≥ ${bound}×`);
  };
  const cold = results.coldStart.samples;
  for (const spec of CLUSTER) {
    const label = `cold start, ${spec.name}`;
    atMost(label, median(cold[spec.name]), FLOOR, median(cold[FLOOR]), ms, TARGETS.coldStartRatio);
  }
  const six = results.sixAtOnce;
  atMost(
    `${CLUSTER_NAME} at once vs 6 floors`,
    median(six[CLUSTER_NAME]),
    `6 × ${FLOOR}`,
    median(six[FLOOR]),
    ms,
    TARGETS.sixServersRatio,
  );
  const load = results.underLoad;
  const rate = (n) => callsPerSecond(load.throughput[n]);
  atLeast(
    `stdio calls/s (${IN_FLIGHT} in flight)`,
    rate(SATDT),
    'bare-sdk',
    rate('bare-sdk'),
    perS,
    TARGETS.callsRatio,
  );
  // What the calls/s target asks of each call's CPU (1 / 1.5): steadier than calls/s on a shared machine.
  atMost(
    `stdio CPU per call (${IN_FLIGHT} in flight)`,
    cpuPerCall(load.throughput[SATDT]),
    'bare-sdk',
    cpuPerCall(load.throughput['bare-sdk']),
    us,
    +(1 / TARGETS.callsRatio).toFixed(2),
  );
  for (const [label, stat] of [
    ['stdio tools/call p50', median],
    ['stdio tools/call p99', p99],
  ]) {
    atMost(
      label,
      stat(load.latency[SATDT]),
      'bare-sdk',
      stat(load.latency['bare-sdk']),
      us,
      TARGETS.latencyRatio,
    );
  }
  const http = results.http;
  for (const mode of HTTP_MODES) {
    atLeast(
      `HTTP calls/s, ${mode === 'sse' ? 'SSE' : 'JSON'} answers`,
      callsPerSecond(http.throughput[`${SATDT}/${mode}`]),
      HTTP_ANCHOR,
      callsPerSecond(http.throughput[`${HTTP_ANCHOR}/${mode}`]),
      perS,
      TARGETS.httpThroughputRatio,
    );
    atMost(
      `HTTP CPU per call, ${mode === 'sse' ? 'SSE' : 'JSON'} answers`,
      cpuPerCall(http.throughput[`${SATDT}/${mode}`]),
      HTTP_ANCHOR,
      cpuPerCall(http.throughput[`${HTTP_ANCHOR}/${mode}`]),
      us,
      +(1 / TARGETS.httpThroughputRatio).toFixed(2),
    );
  }
  const idle = load.idleRss[SATDT];
  rows.push([
    'RSS idle',
    mb(idle),
    '',
    '',
    `≤ ${TARGETS.idleRssMB} MB`,
    verdict(idle / 1024 ** 2 <= TARGETS.idleRssMB),
  ]);
  atMost(
    'RSS after load',
    load.loadedRss[SATDT],
    'bare-sdk',
    load.loadedRss['bare-sdk'],
    mb,
    1,
    '≤ bare-sdk',
  );
  return [
    `issue 17's targets (medians; ratio = measured / anchor, side by side in this run; satdt-mcp unless named):`,
    '',
    table(rows),
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
    ['', 'cold start median', '×floor', 'p90', '×floor', 'six at once median', '×floor', 'p90', '×floor'],
  ];
  for (const spec of SUBJECTS) {
    const n = spec.name;
    const cold = median(samples[n]);
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
    ]);
  }
  rows.push([
    `${CLUSTER_NAME} together`,
    '',
    '',
    '',
    '',
    ms(median(six[CLUSTER_NAME])),
    ratio(median(six[CLUSTER_NAME]), floor.six),
    ms(p90(six[CLUSTER_NAME])),
    ratio(p90(six[CLUSTER_NAME]), floor.sixP90),
  ]);
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
  const rows = [['', HTTP_ANCHOR, SATDT, `×${HTTP_ANCHOR}`]];
  const row = (label, mode, values, fmt) => {
    const anchor = values[`${HTTP_ANCHOR}/${mode}`];
    const satdt = values[`${SATDT}/${mode}`];
    rows.push([label, fmt(anchor), fmt(satdt), ratio(satdt, anchor)]);
  };
  const pick = (samples, stat) => Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stat(v)]));
  const rate = Object.fromEntries(Object.entries(http.throughput).map(([k, v]) => [k, callsPerSecond(v)]));
  for (const mode of HTTP_MODES) {
    rows.push([mode === 'sse' ? 'answers as SSE (default)' : 'answers as JSON']);
    row('  session open median', mode, pick(http.sessionOpen, median), ms);
    row('  tools/call p50', mode, pick(http.latency, median), us);
    row('  tools/call p99', mode, pick(http.latency, p99), us);
    row(`  throughput (${HTTP_SESSIONS} sessions)`, mode, rate, perS);
    row('  CPU per call (same load)', mode, pick(http.throughput, cpuPerCall), us);
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
  if (options.profile) {
    process.stdout.write(`${profileReport(await profileSubject(options.profile))}\n`);
    return;
  }
  const machine = machineInfo();
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
  progress('scale-out engines: the same servers on SQLite and on NATS JetStream / PostgreSQL');
  const engines = await runEnginesBench({
    cases: ENGINE_CASES,
    hubBin: serverBin('hub-mcp'),
    plan: PLAN.engines,
    token: HTTP_TOKEN,
    progress,
  });
  machine.loadAfter = loadavg();

  const results = {
    machine,
    plan: PLAN,
    coldStart: cold,
    sixAtOnce: six,
    underLoad: load,
    http,
    passes: passesResult,
    engines,
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
