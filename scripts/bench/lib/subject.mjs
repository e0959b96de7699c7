// One spawned MCP stdio server driven with raw JSON-RPC lines: requests matched to responses by id,
// timestamps taken in this process with performance.now().
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const PROTOCOL_VERSION = '2025-06-18';

export const INITIALIZE = {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: 'code-cluster-bench', version: '0.0.0' },
};

export class Subject {
  /**
   * @param {{ name: string, command: string, args: string[], cwd?: string, env?: Record<string, string> }} spec
   */
  constructor(spec) {
    this.spec = spec;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = '';
    this.firstByteAt = undefined;
    this.exited = false;
    this.startedAt = performance.now();
    this.child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      // No inherited NODE_OPTIONS or MCP_* settings: each subject runs with its defaults (plus spec.env).
      env: { ...cleanEnv(), ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.exit = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        for (const { reject } of this.pending.values()) {
          reject(new Error(`${spec.name} exited (code ${code}, signal ${signal}) with requests pending`));
        }
        this.pending.clear();
        resolve({ code, signal });
      });
    });
    this.child.stdin.on('error', () => {
      // EPIPE when a subject dies early; the exit handler reports it.
    });
    this.stderr = '';
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text) => {
      // Drained so a chatty server never blocks on a full pipe; only the tail is kept for error reports.
      this.stderr = (this.stderr + text).slice(-4000);
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text) => this.onData(text));
  }

  get pid() {
    return this.child.pid;
  }

  onData(text) {
    this.firstByteAt ??= performance.now();
    this.buffer += text;
    let newline = this.buffer.indexOf('\n');
    while (newline !== -1) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
      if (line.trim() === '') continue;
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        this.fail(new Error(`${this.spec.name} wrote a line that is not JSON: ${line.slice(0, 200)}`));
        continue;
      }
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) continue; // a notification or an unsolicited message
      this.pending.delete(message.id);
      if (message.error) {
        waiter.reject(
          new Error(`${this.spec.name}: ${waiter.method} failed: ${JSON.stringify(message.error)}`),
        );
      } else waiter.resolve(message.result);
    }
  }

  fail(error) {
    for (const { reject } of this.pending.values()) reject(error);
    this.pending.clear();
  }

  /** Sends a request; resolves with its result. */
  request(method, params) {
    const id = this.nextId++;
    const line = `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.child.stdin.write(line);
    });
  }

  notify(method, params) {
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }

  /** initialize + notifications/initialized. */
  async initialize() {
    const result = await this.request('initialize', INITIALIZE);
    this.notify('notifications/initialized');
    return result;
  }

  callTool(name, args) {
    return this.request('tools/call', { name, arguments: args });
  }

  /** The subject's own benchmark call (spec.call), or `fallback`. */
  benchCall(fallback) {
    const { name, args } = this.spec.call ?? fallback;
    return this.callTool(name, args);
  }

  /** VmRSS of the process in bytes, from /proc/<pid>/status. */
  rssBytes() {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!match) throw new Error(`no VmRSS for ${this.spec.name} (pid ${this.pid})`);
    return Number(match[1]) * 1024;
  }

  /** CPU time the process has used so far, user + system, in ms (see `cpuMsOf`). */
  cpuMs() {
    return cpuMsOf(this.pid);
  }

  /** Closes stdin (the clean way to end a stdio server); kills it if it is still there after a grace. */
  async stop(graceMs = 3000) {
    if (this.exited) return this.exit;
    this.child.stdin.end();
    // A server that stays up when stdin closes (server-everything) is asked to leave by its signal.
    if (this.spec.stopSignal) this.child.kill(this.spec.stopSignal);
    const exited = await Promise.race([this.exit.then(() => true), sleep(graceMs, false, { ref: false })]);
    if (!exited) {
      this.child.kill('SIGKILL');
      await this.exit;
    }
    return this.exit;
  }
}

/**
 * CPU time a process has used, user + system, in ms: fields 14 and 15 of /proc/<pid>/stat, in clock ticks
 * of 10 ms (USER_HZ is 100 on Linux). Unlike calls/s, it does not count the time the process waited for a
 * CPU the machine gave to someone else, so it is the steadier figure on a shared machine.
 */
export function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Settings the servers of the cluster read: MCP_*, CODE_CLUSTER_*, <APP>_* (…_API_URL and the like). */
const SERVER_SETTING =
  /^(MCP_|CODE_CLUSTER_|npm_|SATDT_|GROUNDSTATION_|HUB_|ROVERDT_|LAB_|ACADEMY_)|_API_(URL|TOKEN)$/;

/**
 * Node variables no user's start-up has: NODE_OPTIONS, and NODE_EXTRA_CA_CERTS, which these machines set
 * and which makes every Node start (the floor's too) read a CA bundle first.
 */
const NODE_SETTINGS = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS'];

/** The names of this process's variables that no subject gets (the bench prints them). */
export function removedVariables() {
  return Object.keys(process.env)
    .filter((key) => NODE_SETTINGS.includes(key) || SERVER_SETTING.test(key))
    .sort();
}

/** This process's environment without NODE_OPTIONS, NODE_EXTRA_CA_CERTS and any server setting. */
export function cleanEnv() {
  const env = { ...process.env };
  for (const key of removedVariables()) delete env[key];
  return env;
}
