// `npm run test:engines`: the suites that run against distributed engines (issue 12), with the engines
// required: an engine that is not reachable fails the run instead of skipping its suites.
// `npm run test:engines -- --check`: only that verdict, in seconds (CI's first step: `npm test` then runs
// the suites themselves, required by CI=true, instead of failing after every other suite).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENGINE_SUITES, ENGINES, probeEngine } from './engines.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const say = (line) => process.stdout.write(`${line}\n`);
let failed = false;
for (const name of Object.keys(ENGINE_SUITES)) {
  const probe = await probeEngine(name);
  if (!probe.ok) {
    say(`test:engines: ${ENGINES[name].what} is not reachable at ${probe.url} (${probe.reason})`);
    failed = true;
  }
}
if (failed) process.exit(1);
if (process.argv.includes('--check')) {
  say(
    `test:engines: ${Object.values(ENGINES)
      .map((e) => e.what)
      .join(', ')} reachable`,
  );
  process.exit(0);
}

const env = { ...process.env, CODE_ENGINES: 'required' };
const run = (args, cwd = root) => spawnSync('pnpm', args, { cwd, env, stdio: 'inherit' }).status ?? 1;
const filters = Object.values(ENGINE_SUITES)
  .flat()
  .map((suite) => `--filter=${suite.filter}...`);
if (run(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', ...filters]) !== 0) process.exit(1);
let status = 0;
for (const [name, suites] of Object.entries(ENGINE_SUITES)) {
  for (const suite of suites) {
    say(`test:engines: ${name}: ${suite.dir} ${suite.files.join(' ')}`);
    status ||= run(['exec', 'vitest', 'run', ...suite.files], join(root, suite.dir));
  }
}
process.exit(status);
