// The distributed engines some test suites run against (issue 12), and how to tell whether one is here.
// A suite that needs an engine asks `engineForTests(name)`: reachable → it runs; not reachable → it is
// skipped with the reason said on stderr, except when the run requires engines (CI=true, or
// `npm run test:engines`), where a missing engine fails the run.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

export const ENGINES = {
  nats: {
    url: process.env.TEST_NATS_URL || 'nats://127.0.0.1:4222',
    what: 'NATS with JetStream',
  },
  postgres: {
    // An administrator's URL: each suite creates a database of its own there and drops it after.
    url: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    what: 'PostgreSQL',
  },
};

/** Each engine's suites: the package (its built bundle first) and the test files that use the engine. */
export const ENGINE_SUITES = {
  nats: [
    { filter: '@code-cluster/systems', dir: 'packages/systems', files: ['src/hub/system.test.ts'] },
    {
      filter: '@code-cluster/hub-mcp',
      dir: 'apps/hub',
      files: ['test/processes.test.ts', 'test/nats-fault.test.ts', 'test/replicas.test.ts'],
    },
  ],
  postgres: [
    {
      filter: '@code-cluster/systems',
      dir: 'packages/systems',
      files: [
        'src/storage/postgres.test.ts',
        'src/groundstation/system.test.ts',
        'src/groundstation/postgres.test.ts',
        'src/lab/system.test.ts',
        'src/lab/student-labs.test.ts',
        'src/lab/replicas.test.ts',
        'src/lab/migrate.test.ts',
        'src/roverdt/system.test.ts',
        'src/roverdt/bin.test.ts',
        'src/roverdt/engine-fault.test.ts',
        'src/academy/system.test.ts',
        'src/academy/pg-sql.test.ts',
        'src/academy/pg-start.test.ts',
        'src/academy/pg-fault.test.ts',
      ],
    },
    {
      filter: '@code-cluster/groundstation-mcp',
      dir: 'apps/groundstation',
      files: ['test/tools.test.ts', 'test/postgres.test.ts', 'test/replicas.test.ts'],
    },
    {
      filter: '@code-cluster/lab-mcp',
      dir: 'apps/lab',
      files: ['test/postgres.test.ts', 'test/tools.test.ts'],
    },
    {
      filter: '@code-cluster/roverdt-mcp',
      dir: 'apps/roverdt',
      files: ['test/postgres.test.ts', 'test/tools.test.ts'],
    },
    {
      filter: '@code-cluster/academy-mcp',
      dir: 'apps/academy',
      files: ['test/postgres.test.ts', 'test/tools.test.ts', 'test/replicas.test.ts'],
    },
  ],
};

/** True when a missing engine must fail the run instead of skipping its suites. */
export function enginesRequired(env = process.env) {
  return env.CI === 'true' || env.CODE_ENGINES === 'required';
}

/**
 * Each engine's first words on a new connection, judged: NATS greets with `INFO {…}`; PostgreSQL answers
 * an SSLRequest with one byte, `S` or `N`.
 */
const HANDSHAKES = {
  nats: {
    port: 4222,
    hello: undefined,
    judge(bytes) {
      const text = bytes.toString('utf8');
      if (!text.includes('\r\n')) return undefined;
      if (!text.startsWith('INFO ')) return [false, 'what answers there is not NATS'];
      const info = JSON.parse(text.slice(5, text.indexOf('\r\n')));
      return info.jetstream === true ? [true, ''] : [false, 'NATS answers but JetStream is off'];
    },
  },
  postgres: {
    port: 5432,
    hello: Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]),
    judge: (bytes) =>
      ['S', 'N'].includes(String.fromCharCode(bytes[0]))
        ? [true, '']
        : [false, 'what answers there is not PostgreSQL'],
  },
};

/** Connects to the engine and reads its greeting: `{ ok, url, reason }`. Never throws; at most ~2 s. */
export function probeEngine(name) {
  const engine = ENGINES[name];
  const handshake = HANDSHAKES[name];
  const url = new URL(engine.url);
  return new Promise((resolve) => {
    const done = (ok, reason) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ok, url: engine.url, reason, what: engine.what });
    };
    const socket = connect({ host: url.hostname, port: Number(url.port || handshake.port) });
    const timer = setTimeout(() => done(false, 'no answer in 2 s'), 2_000);
    let received = Buffer.alloc(0);
    if (handshake.hello) socket.write(handshake.hello);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const verdict = handshake.judge(received);
      if (verdict) done(...verdict);
    });
    socket.on('error', (error) => done(false, error.code ?? error.message));
  });
}

/**
 * For a test file: the engine's URL when reachable, else undefined after saying on stderr which suite is
 * skipped and why. Throws instead when engines are required.
 */
export async function engineForTests(name, suite) {
  const probe = await probeEngine(name);
  if (probe.ok) return probe.url;
  const line = `engine suite skipped: ${suite} needs ${probe.what} at ${probe.url} (${probe.reason})`;
  if (enginesRequired())
    throw new Error(`${line}; engines are required in this run (CI=true or test:engines)`);
  process.stderr.write(`${line}\n`);
  return undefined;
}

/** For a test file that starts its own engine process: the binary's path when present, else as above. */
export function binaryForTests(path, suite) {
  if (existsSync(path)) return path;
  const line = `engine suite skipped: ${suite} needs the binary ${path} (not installed)`;
  if (enginesRequired())
    throw new Error(`${line}; engines are required in this run (CI=true or test:engines)`);
  process.stderr.write(`${line}\n`);
  return undefined;
}
