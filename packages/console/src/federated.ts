import type { ConsoleOptions, TargetSpec } from './args.js';
import { type CatalogEntry, formatCatalog, ToolNameClashError } from './catalog.js';
import { Checklist } from './checks.js';
import { type DataDir, prepareDataDir } from './data-dir.js';
import { Host } from './host.js';
import type { ConsoleIo } from './io.js';
import { SERVER_APPS, type WireMessage } from './peer.js';
import { Printer } from './render.js';
import { episode } from './scenarios/episode.js';
import type { HostScenario } from './scenarios/scenario.js';
import { colorEnabled, createStyle } from './style.js';

/** Runs a scenario across several servers; resolves with the exit code (0: every expectation held). */
export async function runEpisode(
  options: ConsoleOptions,
  io: ConsoleIo,
  scenario: HostScenario = episode,
): Promise<number> {
  const printer = new Printer({
    out: io.stdout,
    style: createStyle(!options.json && colorEnabled(io.stdout, io.env)),
    json: options.json,
    abridge: abridgeToolsList,
  });
  const checks = new Checklist(printer);
  const dataDir = prepareDataDir(options.dataDir);
  const host = new Host({
    printer,
    protocolVersion: options.protocolVersion,
    env: { ...io.env, CODE_CLUSTER_DATA_DIR: dataDir.path },
    showStderr: options.showStderr,
  });

  printer.note(`${scenario.title}. ${describeDataDir(dataDir)}`);
  const release = disposeOnInterrupt(dataDir);
  try {
    await scenario.run({
      printer,
      host,
      protocolVersion: options.protocolVersion,
      dataDir,
      expect: (name, ok, detail) => checks.expect(name, ok, detail),
    });
  } catch (error) {
    if (error instanceof ToolNameClashError) io.stderr.write(`code-console: ${error.message}\n`);
    else checks.expect('the episode runs to the end', false, (error as Error).message);
  } finally {
    await host.closeAll();
    release();
    dataDir.dispose();
  }
  return checks.finish(io.stderr);
}

/**
 * Prints the unified catalog of the given servers (default: every server of the cluster) and resolves with
 * 0, or with 1 and a message naming the clash when two servers offer the same tool name.
 */
export async function runCatalog(options: ConsoleOptions, io: ConsoleIo): Promise<number> {
  const printer = new Printer({
    out: io.stdout,
    style: createStyle(!options.json && colorEnabled(io.stdout, io.env)),
    json: options.json,
    transcript: false,
  });
  const dataDir = prepareDataDir(options.dataDir);
  const host = new Host({
    printer,
    protocolVersion: options.protocolVersion,
    env: { ...io.env, CODE_CLUSTER_DATA_DIR: dataDir.path },
    showStderr: options.showStderr,
  });
  // No --server: every app of the cluster, plus the `-- <command>` server if given (does it fit in?).
  const specs: TargetSpec[] = options.servers.some((spec) => spec.kind === 'app')
    ? options.servers
    : [...SERVER_APPS.map((app): TargetSpec => ({ kind: 'app', app })), ...options.servers];
  let catalog: readonly CatalogEntry[];
  const release = disposeOnInterrupt(dataDir);
  try {
    const sessions = specs.map((spec) => host.open(spec));
    for (const session of sessions) await host.initialize(session);
    catalog = await host.discover(sessions);
  } catch (error) {
    io.stderr.write(`code-console: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await host.closeAll();
    release();
    dataDir.dispose();
  }

  if (options.json) {
    for (const entry of catalog) io.stdout.write(`${JSON.stringify(entry)}\n`);
    return 0;
  }
  const servers = host.sessions.map((session) => session.label);
  printer.heading(
    'The unified catalog',
    `${catalog.length} tools from ${servers.length} ${servers.length === 1 ? 'server' : 'servers'} ` +
      `(${servers.join(', ')}); every name is unique, so a host ` +
      'can route each call by the tool name alone.',
  );
  printer.block(formatCatalog(catalog));
  return 0;
}

/**
 * Ctrl-C reaches the servers too (same process group) and ends them; the console then removes its temporary
 * data dir before dying of the signal as it would have. Returns the function that stops listening.
 */
function disposeOnInterrupt(dataDir: DataDir): () => void {
  if (!dataDir.temporary) return () => {};
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    dataDir.dispose();
    process.kill(process.pid, signal);
  };
  const release = () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return release;
}

function describeDataDir(dataDir: DataDir): string {
  return dataDir.temporary
    ? `Data dir: a fresh temporary one (${dataDir.path}), removed at the end; --data-dir keeps one.`
    : `Data dir: ${dataDir.path} (--data-dir; bookings and events stay there).`;
}

/** tools/list results are long and the catalog shows them as a table: print a one-line stand-in. */
function abridgeToolsList(message: WireMessage): string | undefined {
  const tools = (message.result as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(tools)) return undefined;
  const names = tools.map((tool) => (tool as { name?: unknown }).name).join(', ');
  return `{ "result": { "tools": [ …${tools.length}: ${names} ] } }  (abridged; --json prints it in full)`;
}
