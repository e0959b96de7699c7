#!/usr/bin/env node
// Two or more builds of a stdio bin side by side: the server's CPU time per `satelite_info` call (user +
// system, /proc/<pid>/stat) and calls/s, 16 in flight, in rounds that alternate between the builds.
//
//   node scripts/bench/compare.mjs before=/tmp/before/satdt-mcp.cjs after=apps/satdt/dist/satdt-mcp.cjs
//   node scripts/bench/compare.mjs a=… b=… --rounds 16 --calls 3000
//
// What it is for: telling a change of a few percent from the noise of a shared machine, which calls/s
// alone cannot (a process waiting for a CPU the machine gave to someone else loses calls/s, not CPU
// time). Copy the dist folder of the build before the change somewhere first (the bin reads its source
// map and nothing else next to it). Each process gets 3000 warm-up calls first, so the JIT has settled.
// Informational, like run.mjs: nothing asserts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './lib/stats.mjs';
import { Subject } from './lib/subject.mjs';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const IN_FLIGHT = 16;
const CALL = { name: 'satelite_info', args: { norad_id: 25544 } };

function parseArgs(argv) {
  const options = { rounds: 12, calls: 3000, warmups: 3000, builds: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--rounds') options.rounds = Number(argv[++i]);
    else if (arg === '--calls') options.calls = Number(argv[++i]);
    else if (arg.includes('=')) {
      const [label, file] = arg.split('=');
      options.builds.push({ label, file: isAbsolute(file) ? file : resolve(root, file) });
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (options.builds.length < 2)
    throw new Error('usage: compare.mjs <label>=<bin> <label>=<bin> … [--rounds N] [--calls N]');
  return options;
}

async function load(subject, calls) {
  let sent = 0;
  const caller = async () => {
    while (sent < calls) {
      sent++;
      const result = await subject.callTool(CALL.name, CALL.args);
      if (result.isError) throw new Error(`${subject.spec.name}: ${CALL.name} answered isError`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
}

const options = parseArgs(process.argv.slice(2));
const temp = mkdtempSync(join(tmpdir(), 'code-cluster-compare-'));
const subjects = options.builds.map(
  ({ label, file }, i) =>
    new Subject({
      name: label,
      command: process.execPath,
      args: [file],
      cwd: root,
      env: { CODE_CLUSTER_DATA_DIR: join(temp, `data-${i}`), XDG_CACHE_HOME: join(temp, 'cache') },
    }),
);
try {
  for (const s of subjects) {
    await s.initialize();
    await load(s, options.warmups);
  }
  const rounds = new Map(subjects.map((s) => [s, []]));
  for (let r = 0; r < options.rounds; r++) {
    for (const s of subjects) {
      const cpu = s.cpuMs();
      const start = performance.now();
      await load(s, options.calls);
      const ms = performance.now() - start;
      rounds
        .get(s)
        .push({ cpuUs: ((s.cpuMs() - cpu) * 1000) / options.calls, perS: options.calls / (ms / 1000) });
    }
  }
  const first = median(rounds.get(subjects[0]).map((x) => x.cpuUs));
  process.stdout.write(
    `${options.rounds} rounds × ${options.calls} calls each (${IN_FLIGHT} in flight, after ${options.warmups} warm-up), alternating; medians\n\n`,
  );
  for (const s of subjects) {
    const cpuUs = median(rounds.get(s).map((x) => x.cpuUs));
    const perS = median(rounds.get(s).map((x) => x.perS));
    process.stdout.write(
      `${s.spec.name.padEnd(14)} CPU per call ${cpuUs.toFixed(0).padStart(4)} µs  (×${(cpuUs / first).toFixed(2)} of ${subjects[0].spec.name})` +
        `   calls/s ${Math.round(perS).toLocaleString('en-US').padStart(7)}   RSS ${(s.rssBytes() / 1024 / 1024).toFixed(1)} MB\n`,
    );
  }
} finally {
  await Promise.all(subjects.map((s) => s.stop()));
  rmSync(temp, { recursive: true, force: true });
}
