import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Resident set size of a live process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** CPU time a process has used so far, in clock ticks (user + system, Linux /proc). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until a process has stopped working (its CPU time stays flat over `quietSamples` samples) and
 * returns the largest RSS seen meanwhile. A memory bound is asserted on that, never a duration: however
 * slow the machine, the process has done all it was going to do when it goes quiet.
 */
export async function peakRssUntilIdle(
  pid: number,
  options: { sampleMs?: number; quietSamples?: number; maxSamples?: number } = {},
): Promise<number> {
  const { sampleMs = 200, quietSamples = 5, maxSamples = 1_500 } = options;
  let peak = rssMiB(pid);
  let last = cpuTicks(pid);
  let quiet = 0;
  for (let i = 0; i < maxSamples && quiet < quietSamples; i++) {
    await sleep(sampleMs);
    peak = Math.max(peak, rssMiB(pid));
    const now = cpuTicks(pid);
    // A tick or two of housekeeping (timers, GC) is not work.
    quiet = now - last <= 1 ? quiet + 1 : 0;
    last = now;
  }
  return peak;
}
