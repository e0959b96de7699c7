import { spawn } from 'node:child_process';
import type { Launch } from './clients.js';

/** What `doctor` allows a server to answer initialize and tools/list in. */
export const DEFAULT_PROBE_TIMEOUT_MS = 2_000;

export type ProbeResult = { ok: true; tools: string[] } | { ok: false; reason: string };

/**
 * Starts a server as a client would (its command and args, its env on top of a minimal one, from `/`)
 * and asks for initialize and tools/list; gives up after `timeoutMs`.
 */
export function probe(launch: Launch, timeoutMs = DEFAULT_PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const child = spawn(launch.command, launch.args, {
      cwd: '/',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', ...launch.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (result: ProbeResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdin.end();
      child.kill('SIGTERM');
      resolve(result);
    };
    const timer = setTimeout(
      () => finish({ ok: false, reason: `no answer to initialize and tools/list within ${timeoutMs} ms` }),
      timeoutMs,
    );
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    child.on('error', (error) => finish({ ok: false, reason: `cannot start: ${error.message}` }));
    child.on('exit', (code) =>
      finish({ ok: false, reason: `exited with code ${code}: ${stderr.trim().split('\n').at(-1) ?? ''}` }),
    );
    child.stdin.on('error', () => {});
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      for (const line of lines) {
        let message: {
          id?: number;
          result?: { tools?: Array<{ name: string }> };
          error?: { message: string };
        };
        try {
          message = JSON.parse(line);
        } catch {
          finish({ ok: false, reason: `wrote a line that is not JSON-RPC on stdout: ${line.slice(0, 80)}` });
          return;
        }
        if (message.error) finish({ ok: false, reason: `answered an error: ${message.error.message}` });
        else if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (message.id === 2) {
          finish({ ok: true, tools: (message.result?.tools ?? []).map((t) => t.name) });
        }
      }
    });
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'code-cluster doctor', version: '1' },
      },
    });
  });
}
