#!/usr/bin/env node
// Runs a reference system as a real HTTP service: `code-systems satdt --port 7401`.
import { parseArgs } from 'node:util';
import { serveHttp } from './http/serve.js';
import { StartError, SYSTEMS, type SystemName } from './registry.js';

const usage = `Usage: code-systems <system> [--port N] [--host ADDR] [--token TOKEN]

Systems: ${Object.keys(SYSTEMS).join(', ')}
  --port   TCP port (default: the system's own, e.g. 7401 for satdt; 0 picks a free one)
  --host   address to bind (default 127.0.0.1; anything else requires --token)
  --token  require "Authorization: Bearer TOKEN" (env SYSTEMS_API_TOKEN)
  --nats-url  hub only: its log on NATS JetStream at this URL (env HUB_NATS_URL; stream HUB_NATS_STREAM)
`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'nats-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const name = positionals[0] as SystemName | undefined;
  if (values.help || !name || !(name in SYSTEMS)) {
    process.stderr.write(usage);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const system = SYSTEMS[name];
  const port = values.port === undefined ? system.defaultPort : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`code-systems: invalid --port ${JSON.stringify(values.port)}: expected 0-65535\n`);
    process.exitCode = 2;
    return;
  }
  const token = values.token ?? process.env.SYSTEMS_API_TOKEN;
  const loopback = ['127.0.0.1', '::1', 'localhost'].includes(values.host);
  if (!loopback && !token) {
    process.stderr.write(`code-systems: refusing to bind ${values.host} without --token\n`);
    process.exitCode = 2;
    return;
  }
  if (values['nats-url'] !== undefined) {
    if (name !== 'hub') {
      process.stderr.write(`code-systems: --nats-url is a setting of the hub, not of ${name}\n`);
      process.exitCode = 2;
      return;
    }
    process.env.HUB_NATS_URL = values['nats-url'];
  }
  let handler: Awaited<ReturnType<typeof system.create>>;
  try {
    handler = await system.create();
  } catch (error) {
    if (!(error instanceof StartError)) throw error;
    process.stderr.write(`code-systems: ${error.message}\n`);
    process.exit(2);
  }
  const service = await serveHttp(handler, { port, host: values.host, ...(token ? { token } : {}) });
  process.stderr.write(`${name} system listening on ${service.url}\n`);
  const stop = () => void service.close().finally(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
