// The scale-out engines beside the embedded default (issue 12): the same server, the same calls, its store
// on SQLite in a data dir or on the shared engine (NATS JetStream, PostgreSQL), over Streamable HTTP with
// several sessions at once; slices interleaved as everywhere in the bench, figures reported as ratios to
// the SQLite subject. Plus what only replicas have: how long a publish on one replica takes to reach a
// subscriber of the other (`notifications/resources/updated` on its GET stream).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENGINES, probeEngine } from '../../engines/engines.mjs';
import { HttpSubject, sseMessages } from './http-subject.mjs';
import { median, p90 } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// The engines' clients are dependencies of packages/systems, not of the root: loaded from there.
const fromSystems = createRequire(join(here, '../../../packages/systems/package.json'));
const load = (id) => import(pathToFileURL(fromSystems.resolve(id)).href);

/** A database of the bench's own on the PostgreSQL of `adminUrl`: its URL, and how to drop it. */
export async function benchDatabase(adminUrl) {
  const { default: pg } = await load('pg');
  const name = `code_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** Deletes a stream the bench made on the shared NATS. */
export async function deleteStream(natsUrl, stream) {
  const [{ connect }, { jetstreamManager }] = await Promise.all([
    load('@nats-io/transport-node'),
    load('@nats-io/jetstream'),
  ]);
  const connection = await connect({ servers: natsUrl });
  try {
    await (await jetstreamManager(connection)).streams.delete(stream).catch(() => undefined);
  } finally {
    await connection.close();
  }
}

/**
 * @typedef {{ label: string, engine: 'nats' | 'postgres', server: string, bin: string, tool: string,
 *   args: (i: number) => object, sqliteEnv: () => object, engineEnv: (url: string) => Promise<object>,
 *   cleanup?: () => Promise<void> }} EngineCase
 */

/** A built server on Streamable HTTP with JSON answers and a bearer token, as every engine row runs it. */
function jsonSubject({ key, name, bin, env, token, connections }) {
  return new HttpSubject({
    key,
    name,
    mode: 'json',
    command: process.execPath,
    args: [bin, '--transport', 'http', '--port', '0', '--http-response', 'json'],
    env: { ...env, MCP_HTTP_TOKEN: token },
    token,
    connections,
  });
}

/** Calls/s of `tool` with `sessions` sessions at once, SQLite and engine subjects alternating slices. */
async function throughput(c, engineUrl, plan, token, progress) {
  const make = (key, env) =>
    jsonSubject({ key, name: c.server, bin: c.bin, env, token, connections: plan.sessions });
  const subjects = [make('sqlite', c.sqliteEnv()), make(c.engine, await c.engineEnv(engineUrl))];
  try {
    await Promise.all(subjects.map((s) => s.start()));
    const sessions = new Map();
    for (const s of subjects) {
      const list = [];
      for (let i = 0; i < plan.sessions; i++) list.push(await s.openSession());
      sessions.set(s, list);
    }
    let next = 0;
    const slice = async (s) => {
      const start = performance.now();
      let calls = 0;
      const worker = async (session) => {
        while (performance.now() - start < plan.sliceMs) {
          await session.callTool(c.tool, c.args(next++));
          calls++;
        }
      };
      await Promise.all(sessions.get(s).map(worker));
      return calls / ((performance.now() - start) / 1000);
    };
    progress(`engines: ${c.label}, ${plan.sessions} sessions, ${plan.slices} × ${plan.sliceMs} ms each`);
    for (const s of subjects) await slice(s); // warm-up
    const rates = { sqlite: [], [c.engine]: [] };
    for (let i = 0; i < plan.slices; i++) for (const s of subjects) rates[s.spec.key].push(await slice(s));
    return rates;
  } catch (error) {
    const tails = subjects.map((s) => `--- ${s.spec.key} stderr:\n${s.stderr}`).join('\n');
    throw new Error(`${error.message}\n${tails}`, { cause: error });
  } finally {
    await Promise.all(subjects.map((s) => s.stop()));
  }
}

/**
 * Two hub-mcp replicas on one stream: a session of A subscribed to a topic, with its GET stream open; B
 * publishes; the time from B's publish being sent to A's notice arriving, `rounds` times.
 */
async function crossReplicaNotice(hubBin, natsUrl, rounds, token) {
  const stream = `BENCH_HUB_${randomBytes(4).toString('hex')}`;
  const make = (key) =>
    jsonSubject({
      key,
      name: 'hub-mcp',
      bin: hubBin,
      env: { HUB_NATS_URL: natsUrl, HUB_NATS_STREAM: stream },
      token,
      connections: 2,
    });
  const [a, b] = [make('replica-a'), make('replica-b')];
  const abort = new AbortController();
  try {
    await Promise.all([a.start(), b.start()]);
    const subscriber = await a.openSession();
    const publisher = await b.openSession();
    await subscriber.request('resources/subscribe', { uri: 'hub://topicos/bench' });
    const url = new URL(a.path, (await a.url).origin);
    const get = await fetch(url, {
      headers: { ...a.headers, accept: 'text/event-stream', 'mcp-session-id': subscriber.id },
      signal: abort.signal,
    });
    const notices = [];
    let wake = () => {};
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of get.body) {
        buffered += decoder.decode(chunk, { stream: true });
        const end = buffered.lastIndexOf('\n\n');
        if (end < 0) continue;
        for (const m of sseMessages(buffered.slice(0, end)))
          if (m.method === 'notifications/resources/updated') notices.push(performance.now());
        buffered = buffered.slice(end + 2);
        wake();
      }
    })().catch(() => {});
    const latencies = [];
    for (let round = 0; round < rounds + 5; round++) {
      const before = notices.length;
      const sent = performance.now();
      await publisher.callTool('publicar_evento', { topico: 'bench', tipo: 'n', datos: { round } });
      while (notices.length === before) await new Promise((resolve) => (wake = resolve));
      if (round >= 5) latencies.push(notices[before] - sent);
      await sleep(20);
    }
    return latencies;
  } finally {
    abort.abort();
    await Promise.all([a.stop(), b.stop()]);
    await deleteStream(natsUrl, stream);
  }
}

/**
 * Every case whose engine answers, measured; a case whose engine does not is reported as skipped with the
 * reason (the bench never fails for it).
 */
export async function runEnginesBench({ cases, hubBin, plan, token, progress }) {
  const results = [];
  for (const c of cases) {
    const probe = await probeEngine(c.engine);
    if (!probe.ok) {
      results.push({
        label: c.label,
        engine: c.engine,
        skipped: `${ENGINES[c.engine].what} not reachable at ${probe.url} (${probe.reason})`,
      });
      continue;
    }
    try {
      results.push({
        label: c.label,
        engine: c.engine,
        rates: await throughput(c, probe.url, plan, token, progress),
      });
    } finally {
      await c.cleanup?.(probe.url);
    }
  }
  const nats = await probeEngine('nats');
  const notice = nats.ok
    ? { latencies: await crossReplicaNotice(hubBin, nats.url, plan.noticeRounds, token) }
    : { skipped: `NATS not reachable at ${nats.url} (${nats.reason})` };
  return { cases: results, notice };
}

/** The engines' lines of the report. */
export function enginesReport({ cases, notice }, { perS, ms }) {
  const lines = [
    'scale-out engines (Streamable HTTP, JSON responses; ×sqlite = engine / the same server on SQLite):',
  ];
  for (const c of cases) {
    if (c.skipped) {
      lines.push(`  ${c.label}: skipped, ${c.skipped}`);
      continue;
    }
    const sqlite = median(c.rates.sqlite);
    const engine = median(c.rates[c.engine]);
    lines.push(
      `  ${c.label}: SQLite ${perS(sqlite)}, ${c.engine} ${perS(engine)}  ×sqlite ${(engine / sqlite).toFixed(2)}`,
    );
  }
  lines.push(
    notice.skipped
      ? `  cross-replica notice: skipped, ${notice.skipped}`
      : `  cross-replica notice (publish on B → notifications/resources/updated on A, ${notice.latencies.length} rounds): ` +
          `median ${ms(median(notice.latencies))}, p90 ${ms(p90(notice.latencies))}  target < 200 ms ` +
          `${p90(notice.latencies) < 200 ? 'PASS' : 'MISS'}`,
  );
  return lines.join('\n');
}
