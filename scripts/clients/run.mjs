#!/usr/bin/env node
// Drives every built server with MCP clients nobody in this repository wrote, each pinned, over stdio and
// Streamable HTTP (stateful and --stateless), all held to the one scenario of scenario.json:
//   python-sdk  the official Python SDK (mcp, PyPI; requirements.txt) in a venv under .tools/clients/python
//   inspector   the MCP Inspector CLI 2.x with --strict (package.json), on the Node 24 binary
//   ts-sdk      the official TypeScript SDK client (the workspace's @modelcontextprotocol/sdk)
//   ai-sdk      the AI SDK's own MCP client (@ai-sdk/mcp, package.json), on the Node 24 binary
// Each client × server × transport runs on a fresh data dir (and, over HTTP, a server of its own) and
// prints one line; the run ends with `N passed, N failed` and exits 1 on any failure. Failing steps
// listed in baseline.json (known server bugs, each with its reason) do not fail a line; an entry whose
// step now passes is reported so it can be removed. Builds nothing: run `pnpm build` first.
//
//   node scripts/clients/run.mjs [--client ts-sdk] [--server hub] [--transport stdio|http|stateless]
//                                [--jobs N (default: one per core)] [--verbose]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { node24 as nodeBinary, root, toolsDir } from '../lib/node24.mjs';
import { ensurePinned, setupStep } from '../lib/pinned.mjs';
import { discoverServers, startHttpServer } from '../lib/servers.mjs';

const here = join(root, 'scripts/clients');
const prefix = join(toolsDir, 'clients');
const venv = join(prefix, 'python');
const DRIVER_TIMEOUT_MS = 240_000;
const TRANSPORTS = ['stdio', 'http', 'stateless'];

const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const verbose = argv.includes('--verbose');
// Most of a run is spent starting processes and waiting on them: one per core keeps both busy.
const jobs = Math.max(1, Number(option('--jobs') ?? Math.max(2, availableParallelism())));

function log(message) {
  process.stderr.write(`[clients] ${message}\n`);
}

/** The npm clients and the Python venv, (re)installed when their pinned versions change. */
function ensureClients() {
  ensurePinned({
    sourceDir: here,
    prefix,
    log,
    what: 'clients',
    extraPins: ['requirements.txt'],
    afterNpm: () => {
      setupStep('python3', ['-m', 'venv', venv], 'create the Python venv (python3 -m venv)', log);
      setupStep(
        join(venv, 'bin/python'),
        ['-m', 'pip', 'install', '-qq', '-r', join(here, 'requirements.txt')],
        'install the Python SDK',
        log,
      );
    },
  });
}

const node24 = nodeBinary(log);
ensureClients();

const drivers = join(here, 'drivers');
const inspectorCli = join(
  prefix,
  'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const CLIENTS = {
  'python-sdk': [join(venv, 'bin/python'), join(drivers, 'python_sdk.py')],
  inspector: [
    process.execPath,
    join(drivers, 'inspector.mjs'),
    '--inspector-node',
    node24,
    '--inspector',
    inspectorCli,
  ],
  'ts-sdk': [process.execPath, join(drivers, 'ts-sdk.mjs')],
  'ai-sdk': [node24, join(drivers, 'ai-sdk.mjs')],
};

const scenarioFile = join(here, 'scenario.json');
const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8'));
const baseline = JSON.parse(readFileSync(join(here, 'baseline.json'), 'utf8'));
for (const entry of baseline.knownFailures) {
  if (!entry.client || !entry.server || !entry.transport || !entry.step || !entry.reason) {
    log(`baseline entry without client, server, transport, step and reason: ${JSON.stringify(entry)}`);
    process.exit(1);
  }
}
const known = (job, step) =>
  baseline.knownFailures.find(
    (e) => ['client', 'server', 'transport'].every((k) => e[k] === '*' || e[k] === job[k]) && e.step === step,
  );

const servers = discoverServers(option('--server'));
if (servers.length === 0) {
  log('no built server found (apps/*/dist/*-mcp.cjs): run `pnpm build` first');
  process.exit(1);
}
const plan = [];
for (const client of Object.keys(CLIENTS).filter((c) => !option('--client') || c === option('--client'))) {
  for (const { app, bin } of servers) {
    if (!scenario.servers[app]) {
      log(`scenario.json has no scenario for ${app}`);
      process.exit(1);
    }
    for (const transport of TRANSPORTS.filter((t) => !option('--transport') || t === option('--transport'))) {
      plan.push({ client, server: app, bin, transport });
    }
  }
}

const work = mkdtempSync(join(tmpdir(), 'mcp-clients-'));

/** Runs one driver to its end; resolves with its step reports (a crash or timeout is one failed step). */
function runDriver(job, extra) {
  const [command, ...args] = CLIENTS[job.client];
  const child = spawn(
    command,
    [...args, '--server', job.server, '--transport', job.transport, '--scenario', scenarioFile, ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), DRIVER_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const steps = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      if (signal || code !== 0 || steps.length === 0) {
        steps.push({
          step: 'driver',
          ok: false,
          detail: `exited ${signal ?? code} after ${steps.length} steps: ${stderr.slice(-500)}`,
        });
      }
      resolve(steps);
    });
  });
}

async function runJob(job, index) {
  const dataDir = join(work, String(index));
  mkdirSync(dataDir);
  let server;
  try {
    let extra = ['--data-dir', dataDir];
    if (job.transport === 'stdio') extra.push('--node', process.execPath, '--bin', job.bin);
    else {
      const args = [
        ...(scenario.servers[job.server].args ?? []),
        ...(job.transport === 'stateless' ? ['--stateless'] : []),
      ];
      server = await startHttpServer(job.bin, dataDir, args);
      extra = [...extra, '--url', server.url];
    }
    return await runDriver(job, extra);
  } catch (error) {
    return [{ step: 'server', ok: false, detail: error.message }];
  } finally {
    server?.child.kill('SIGTERM');
  }
}

const started = Date.now();
let passed = 0;
let failed = 0;
const stale = [];
const results = new Array(plan.length);
let printed = 0;
/** Lines come out in plan order, each as soon as it and every line before it are done. */
function flush() {
  while (printed < plan.length && results[printed]) {
    const job = plan[printed];
    const steps = results[printed];
    const failures = steps.filter((s) => s.ok === false && !known(job, s.step));
    const expected = steps.filter((s) => s.ok === false && known(job, s.step));
    const na = steps.filter((s) => s.ok === null);
    for (const s of steps)
      if (s.ok === true && known(job, s.step))
        stale.push(`${job.client}/${job.server}/${job.transport}: ${s.step}`);
    const ok = failures.length === 0;
    if (ok) passed++;
    else failed++;
    const counts = [`${steps.filter((s) => s.ok).length} steps passed`];
    if (na.length) counts.push(`${na.length} not applicable`);
    if (expected.length) counts.push(`${expected.length} known failure(s) (baseline)`);
    process.stdout.write(
      `${ok ? 'PASS' : 'FAIL'}  ${job.client.padEnd(10)} ${job.server.padEnd(13)} ${job.transport.padEnd(9)} ${counts.join(', ')}\n`,
    );
    for (const s of failures) process.stdout.write(`        ✗ ${s.step}: ${s.detail}\n`);
    if (verbose) {
      for (const s of expected)
        process.stdout.write(`        known ${s.step}: ${known(job, s.step).reason}\n`);
      for (const s of na) process.stdout.write(`        n/a ${s.step}: ${s.detail}\n`);
      for (const s of steps.filter((x) => x.ok && x.detail))
        process.stdout.write(`        ✓ ${s.step}: ${s.detail}\n`);
    }
    printed++;
  }
}

let next = 0;
async function worker() {
  while (next < plan.length) {
    const index = next++;
    results[index] = await runJob(plan[index], index);
    flush();
  }
}
process.stdout.write(
  `MCP clients × ${servers.length} server(s) × ${TRANSPORTS.length} transports (${plan.length} runs, ${jobs} at a time):\n`,
);
await Promise.all(Array.from({ length: Math.min(jobs, plan.length) }, worker));
rmSync(work, { recursive: true, force: true });

if (stale.length > 0) {
  process.stdout.write(`now passing, remove from scripts/clients/baseline.json:\n  ${stale.join('\n  ')}\n`);
}
process.stdout.write(
  `${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
);
process.exit(failed === 0 ? 0 : 1);
