// One spawned MCP server on Streamable HTTP, driven with undici: a Pool per server, sessions opened with
// initialize → notifications/initialized, answers read as JSON or as an SSE stream (the `data:` lines).
// Timestamps are taken in this process with performance.now().
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cleanEnv, cpuMsOf, INITIALIZE, PROTOCOL_VERSION } from './subject.mjs';

// undici is a dependency of the workspace (packages/testkit), not of the root: resolved from there.
const here = dirname(fileURLToPath(import.meta.url));
const { Pool } = createRequire(join(here, '../../../packages/testkit/package.json'))('undici');

const LISTENING = /: listening on (http:\/\/\S+)/;

export class HttpSubject {
  /**
   * @param {{ key: string, name: string, mode: 'sse' | 'json', command: string, args: string[],
   *   cwd?: string, env?: Record<string, string>, token?: string, origin?: boolean, connections: number }} spec
   */
  constructor(spec) {
    this.spec = spec;
    this.exited = false;
    this.stderr = '';
    this.child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: { ...cleanEnv(), ...spec.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.exit = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.exited = true;
        resolve({ code, signal });
      });
    });
    this.child.stderr.setEncoding('utf8');
    this.url = new Promise((resolve, reject) => {
      let seen = '';
      const onData = (text) => {
        seen += text;
        const match = LISTENING.exec(seen);
        if (match) {
          this.child.stderr.off('data', onData);
          resolve(new URL(match[1]));
        }
      };
      this.child.stderr.on('data', onData);
      this.exit.then(({ code, signal }) =>
        reject(new Error(`${spec.key} exited (code ${code}, signal ${signal}) before listening: ${seen}`)),
      );
    });
    this.child.stderr.on('data', (text) => {
      // Drained so a chatty server never blocks on a full pipe; only the tail is kept for error reports.
      this.stderr = (this.stderr + text).slice(-4000);
    });
  }

  get pid() {
    return this.child.pid;
  }

  /** Waits for the `listening on` line and opens the connection pool. */
  async start(timeoutMs = 20_000) {
    let timer;
    const url = await Promise.race([
      this.url,
      new Promise((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new Error(`${this.spec.key}: no "listening on" line after ${timeoutMs} ms: ${this.stderr}`),
            ),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
    this.path = url.pathname;
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      // A browser-like loopback Origin, so the server's Origin check runs on every request.
      ...(this.spec.origin ? { origin: url.origin } : {}),
      ...(this.spec.token ? { authorization: `Bearer ${this.spec.token}` } : {}),
    };
    this.pool = new Pool(url.origin, { connections: this.spec.connections, pipelining: 1 });
    return this;
  }

  async openSession() {
    const session = new HttpSession(this);
    await session.initialize();
    return session;
  }

  /** CPU time the process has used so far, user + system, in ms. */
  cpuMs() {
    return cpuMsOf(this.pid);
  }

  /** VmRSS of the process in bytes, from /proc/<pid>/status. */
  rssBytes() {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!match) throw new Error(`no VmRSS for ${this.spec.key} (pid ${this.pid})`);
    return Number(match[1]) * 1024;
  }

  /** SIGTERM (the servers close their sessions and exit within 2 s); SIGKILL after a grace. */
  async stop(graceMs = 3000) {
    await this.pool?.destroy().catch(() => {});
    if (this.exited) return this.exit;
    this.child.kill('SIGTERM');
    const exited = await Promise.race([this.exit.then(() => true), sleep(graceMs, false, { ref: false })]);
    if (!exited) {
      this.child.kill('SIGKILL');
      await this.exit;
    }
    return this.exit;
  }
}

export class HttpSession {
  constructor(subject) {
    this.subject = subject;
    this.nextId = 1;
    this.id = undefined;
  }

  /** POSTs one JSON-RPC message; resolves with the response to `id` (undefined for a notification). */
  async post(message) {
    const s = this.subject;
    const headers = { ...s.headers };
    if (this.id) {
      headers['mcp-session-id'] = this.id;
      headers['mcp-protocol-version'] = PROTOCOL_VERSION;
    }
    const {
      statusCode,
      headers: answer,
      body,
    } = await s.pool.request({
      path: s.path,
      method: 'POST',
      headers,
      body: JSON.stringify(message),
    });
    const text = await body.text();
    if (message.id === undefined) {
      if (statusCode !== 202) throw new Error(`${s.spec.key}: ${message.method}: HTTP ${statusCode} ${text}`);
      return { statusCode, headers: answer };
    }
    if (statusCode !== 200) throw new Error(`${s.spec.key}: ${message.method}: HTTP ${statusCode} ${text}`);
    const type = String(answer['content-type'] ?? '');
    const replies = type.startsWith('text/event-stream') ? sseMessages(text) : [JSON.parse(text)];
    const reply = replies.flat().find((m) => m.id === message.id && ('result' in m || 'error' in m));
    if (!reply) throw new Error(`${s.spec.key}: ${message.method}: no response in ${text.slice(0, 300)}`);
    if (reply.error)
      throw new Error(`${s.spec.key}: ${message.method} failed: ${JSON.stringify(reply.error)}`);
    return { statusCode, headers: answer, result: reply.result };
  }

  request(method, params) {
    return this.post({ jsonrpc: '2.0', id: this.nextId++, method, params });
  }

  /** initialize (takes the Mcp-Session-Id) + notifications/initialized. */
  async initialize() {
    const { headers } = await this.request('initialize', INITIALIZE);
    this.id = headers['mcp-session-id'];
    if (!this.id) throw new Error(`${this.subject.spec.key}: initialize answered without Mcp-Session-Id`);
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  async callTool(name, args) {
    const { result } = await this.request('tools/call', { name, arguments: args });
    if (result.isError) throw new Error(`${this.subject.spec.key}: ${name} answered isError`);
    return result;
  }
}

/** The JSON-RPC messages of an SSE body: one per event, from its `data:` lines (joined by newlines). */
export function sseMessages(text) {
  const messages = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = [];
    for (const line of event.split(/\r?\n/)) {
      if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
    if (data.length > 0) messages.push(JSON.parse(data.join('\n')));
  }
  return messages;
}
