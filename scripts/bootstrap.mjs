#!/usr/bin/env node
// Makes a fresh clone work with nothing but Node ≥ 20 and npm: finds pnpm 12.4.2 (or installs it into
// .tools/, never globally), installs the workspace, builds it, then runs one job:
//   node scripts/bootstrap.mjs demo   the main job: the console's federated episode across three servers
//   node scripts/bootstrap.mjs test   lint, typecheck, build and every test of the workspace
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PNPM_VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split(
  '@',
)[1];
const job = process.argv[2];
const passthrough = process.argv.slice(3);

const env = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  TURBO_NO_UPDATE_NOTIFIER: '1',
  DO_NOT_TRACK: '1',
};
// Native addons build against the headers Node ships with the system when they cannot be downloaded.
if (!env.npm_config_nodedir && existsSync('/usr/include/node/node.h')) env.npm_config_nodedir = '/usr';

function log(message) {
  process.stderr.write(`\x1b[2m[bootstrap]\x1b[0m ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function must(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) {
    log(`failed: ${command} ${args.join(' ')} (exit ${status})`);
    process.exit(status);
  }
}

function pnpmOnPath() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8', env });
  return probe.status === 0 && probe.stdout.trim() === PNPM_VERSION ? 'pnpm' : undefined;
}

function findPnpm() {
  const found = pnpmOnPath();
  if (found) return found;
  const local = join(root, '.tools', 'node_modules', '.bin', 'pnpm');
  if (!existsSync(local)) {
    log(`installing pnpm ${PNPM_VERSION} into .tools/ (once)`);
    must('npm', [
      'install',
      '--prefix',
      join(root, '.tools'),
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `pnpm@${PNPM_VERSION}`,
    ]);
  }
  return local;
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 11)) {
  log(`Node ${process.versions.node} is too old: Node 20.11 or newer is required`);
  process.exit(1);
}
if (!['demo', 'test', 'setup'].includes(job)) {
  log('usage: node scripts/bootstrap.mjs demo|test|setup');
  process.exit(2);
}

const pnpm = findPnpm();
// The .bin of pnpm (and of the workspace) must be on PATH for turbo and package scripts.
env.PATH = [dirname(pnpm === 'pnpm' ? 'pnpm' : pnpm), join(root, 'node_modules', '.bin'), env.PATH].join(':');
must(pnpm, ['install', '--frozen-lockfile', '--reporter=append-only', '--loglevel=warn']);

if (job === 'setup') {
  must(pnpm, ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
} else if (job === 'demo') {
  must(pnpm, ['exec', 'turbo', 'run', 'build', '--output-logs=errors-only']);
  process.exit(run(process.execPath, [join(root, 'packages/console/dist/main.js'), ...passthrough]));
} else {
  must(pnpm, ['exec', 'biome', 'check', '.']);
  must(pnpm, ['exec', 'turbo', 'run', 'typecheck', 'build', '--output-logs=errors-only']);
  const resultsDir = join(root, '.test-results');
  rmSync(resultsDir, { recursive: true, force: true });
  // The suites that need an engine (NATS, …) skip themselves when it is not reachable; say which, up front.
  const skippedEngines = await unreachableEngines();
  // One package at a time: the suites spawn real servers, and two cores are easily oversubscribed.
  const status = run(pnpm, ['exec', 'turbo', 'run', 'test', '--concurrency=1', ...passthrough], {
    env: { ...env, CODE_CLUSTER_TEST_RESULTS: resultsDir },
  });
  summarise(resultsDir, skippedEngines);
  process.exit(status);
}

/** One line per engine that is not reachable: its suites are skipped (or, with CI=true, fail). */
async function unreachableEngines() {
  const { ENGINE_SUITES, ENGINES, enginesRequired, probeEngine } = await import('./engines/engines.mjs');
  const missing = [];
  for (const name of Object.keys(ENGINES)) {
    const probe = await probeEngine(name);
    if (probe.ok) continue;
    const suites = ENGINE_SUITES[name].flatMap((suite) => suite.files.map((file) => `${suite.dir}/${file}`));
    missing.push(
      `${name}: ${suites.join(', ')} (${probe.what} not reachable at ${probe.url}: ${probe.reason})`,
    );
  }
  if (missing.length > 0) {
    const verdict = enginesRequired() ? 'CI=true: their suites fail' : 'their suites are skipped';
    log(`engines not reachable, ${verdict}: ${missing.join('; ')}`);
  }
  return missing;
}

/** One closing line for the whole workspace, from each package's vitest JSON report. */
function summarise(dir, skippedEngines) {
  if (!existsSync(dir)) return;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  // Only the reports: packages may leave other output there too (the views' screenshots, in views/).
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
  }
  const engines = skippedEngines.length > 0 ? ` (engine suites not run: ${skippedEngines.join('; ')})` : '';
  process.stdout.write(
    `\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${engines}\n`,
  );
}
