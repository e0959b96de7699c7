// The built servers of the cluster and how a check starts one over Streamable HTTP (the conformance
// suite and the clients check share this).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './node24.mjs';

/** Every built server bin: apps/<app>/dist/<name>-mcp.cjs, optionally only the app `only`. */
export function discoverServers(only) {
  const servers = [];
  const apps = join(root, 'apps');
  for (const app of readdirSync(apps).sort()) {
    const dist = join(apps, app, 'dist');
    if (!existsSync(dist)) continue;
    for (const file of readdirSync(dist)) {
      if (file.endsWith('-mcp.cjs')) servers.push({ app, bin: join(dist, file) });
    }
  }
  return servers.filter((s) => !only || s.app === only);
}

/** Starts a built server on a free loopback port; resolves with its endpoint URL once it listens. */
export function startHttpServer(bin, dataDir, extraArgs = []) {
  const child = spawn(
    process.execPath,
    [bin, '--transport', 'http', '--port', '0', '--log-level', 'warning', ...extraArgs],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CODE_CLUSTER_DATA_DIR: dataDir, MCP_TRANSPORT: 'http' },
    },
  );
  let stderr = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" line within 20 s:\n${stderr}`)),
      20_000,
    );
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1], stderr: () => stderr });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening:\n${stderr}`));
    });
  });
}
