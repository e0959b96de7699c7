#!/usr/bin/env node
// Runs a reference system as a real HTTP service: `code-systems satdt --port 7401`.
import { parseArgs } from 'node:util';
import { serveHttp } from './http/serve.js';
import { databaseUrl, StartError, SYSTEMS, type SystemEntry, type SystemName } from './registry.js';

const usage = `Usage: code-systems <system> [--port N] [--host ADDR] [--token TOKEN] [--database-url URL]
       code-systems migrate <system> [--database-url ADMIN_URL]

Systems: ${Object.keys(SYSTEMS).join(', ')}
  --port   TCP port (default: the system's own, e.g. 7401 for satdt; 0 picks a free one)
  --host   address to bind (default 127.0.0.1; anything else requires --token)
  --token  require "Authorization: Bearer TOKEN" (env SYSTEMS_API_TOKEN)
  --nats-url  hub only: its log on NATS JetStream at this URL (env HUB_NATS_URL; stream HUB_NATS_STREAM)
  --database-url  groundstation, lab, roverdt, academy: the store on PostgreSQL at this URL
              (env <SYSTEM>_DATABASE_URL, e.g. GROUNDSTATION_DATABASE_URL); unset: SQLite in the data dir
  --analytics-database-url  academy on PostgreSQL: the SELECT-only credentials of consulta_sql
              (env ACADEMY_ANALYTICS_DATABASE_URL; required with --database-url)

migrate: creates or upgrades the system's schema (and for academy the SELECT-only analytics role of
ACADEMY_ANALYTICS_DATABASE_URL and its grants) on PostgreSQL, or its SQLite file without a URL. Idempotent.
`;

const fail = (line: string) => {
  process.stderr.write(`code-systems: ${line}\n`);
  process.exit(2);
};

/** Systems whose store can live on PostgreSQL: those with a `migrate`. */
const WITH_DATABASE = (Object.keys(SYSTEMS) as SystemName[]).filter((name) => 'migrate' in SYSTEMS[name]);
const withDatabase = (name: SystemName) => WITH_DATABASE.includes(name);
const databaseSystems = WITH_DATABASE.join(', ');

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      token: { type: 'string' },
      'nats-url': { type: 'string' },
      'database-url': { type: 'string' },
      'analytics-database-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const migrating = positionals[0] === 'migrate';
  const name = positionals[migrating ? 1 : 0] as SystemName | undefined;
  if (values.help || !name || !(name in SYSTEMS)) {
    process.stderr.write(usage);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const system: SystemEntry = SYSTEMS[name];
  if (values['database-url'] !== undefined) {
    if (!withDatabase(name)) fail(`--database-url is a setting of ${databaseSystems}, not of ${name}`);
    process.env[`${name.toUpperCase()}_DATABASE_URL`] = values['database-url'];
  }
  if (values['analytics-database-url'] !== undefined) {
    if (name !== 'academy') fail(`--analytics-database-url is a setting of academy, not of ${name}`);
    process.env.ACADEMY_ANALYTICS_DATABASE_URL = values['analytics-database-url'];
  }
  if (migrating) {
    if (!system.migrate) return fail(`${name} has no schema to migrate (migrate is for ${databaseSystems})`);
    try {
      process.stdout.write(`${await system.migrate(databaseUrl(name))}\n`);
    } catch (error) {
      fail(`migrate ${name}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return;
  }
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
