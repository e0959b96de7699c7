import { accessSync, constants, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CLIENTS, clients, type Launch, type Place } from './clients.js';
import { readEntries } from './config-file.js';
import { probe } from './probe.js';
import { entryName, installedBin, isOurs, servers } from './servers.js';

export interface Finding {
  ok: boolean;
  what: string;
  /** For a problem: the command (or step) that fixes it. */
  fix?: string;
}

const MIN_NODE = [20, 11];

function nodeVersion(): Finding {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const ok = major > MIN_NODE[0]! || (major === MIN_NODE[0] && minor >= MIN_NODE[1]!);
  return ok
    ? { ok, what: `Node ${process.version} (${process.execPath})` }
    : {
        ok,
        what: `Node ${process.version} is too old: the servers need Node >= 20.11`,
        fix: 'install Node 22 LTS or newer',
      };
}

/** The driver the servers with state will use under this Node, from where they are installed. */
function sqliteDriver(): Finding {
  try {
    if (process.getBuiltinModule?.('node:sqlite'))
      return { ok: true, what: 'SQLite: node:sqlite (built into this Node)' };
  } catch {
    // An older Node: see whether better-sqlite3 loads next to the servers.
  }
  const stateful = servers.find((s) => s.sqlite)!;
  const bin = installedBin(stateful);
  if (typeof bin === 'string') {
    try {
      const Database = createRequire(bin)('better-sqlite3') as new (file: string) => { close(): void };
      new Database(':memory:').close();
      return { ok: true, what: 'SQLite: better-sqlite3 (this Node has no node:sqlite)' };
    } catch (error) {
      return {
        ok: false,
        what: `SQLite: this Node has no node:sqlite and better-sqlite3 does not load (${(error as Error).message.split('\n')[0]})`,
        fix: `use Node 22.13 or newer, or: cd ${join(bin, '..', '..')} && npm install better-sqlite3`,
      };
    }
  }
  return { ok: false, what: `SQLite: cannot check: ${bin.error}`, fix: `npm install ${stateful.package}` };
}

/** The directory the servers with state write to (packages/systems/src/storage/data-dir.ts). */
function dataDirFinding(env: NodeJS.ProcessEnv, home: string): Finding {
  const dir =
    env.CODE_CLUSTER_DATA_DIR || join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'code-cluster');
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    const probeFile = join(dir, `.doctor-${process.pid}`);
    writeFileSync(probeFile, '');
    rmSync(probeFile);
    return { ok: true, what: `data dir ${dir} is writable` };
  } catch (error) {
    return {
      ok: false,
      what: `data dir ${dir} is not writable (${(error as Error).message})`,
      fix: `mkdir -p "${dir}" && chmod u+w "${dir}" (or set CODE_CLUSTER_DATA_DIR to a writable directory)`,
    };
  }
}

/** Every check, in order; each of our entries in each client config found is started for real. */
export async function doctor(place: Place, timeoutMs?: number): Promise<Finding[]> {
  const findings = [nodeVersion(), sqliteDriver(), dataDirFinding(place.env, place.home)];
  for (const id of CLIENTS) {
    const client = clients[id];
    const file = client.file(place);
    if (typeof file !== 'string' || !existsSync(file)) continue;
    const reinstall = `code-cluster install --client ${id}${place.project ? ` --project ${place.project}` : ''}`;
    let entries: Record<string, unknown>;
    try {
      entries = readEntries(file, client.key);
    } catch (error) {
      findings.push({ ok: false, what: (error as Error).message, fix: `fix the JSON of ${file}` });
      continue;
    }
    for (const server of servers) {
      const entry = entries[entryName(server)];
      if (!isOurs(server, entry)) continue;
      const launch = entry as Launch;
      const where = `${client.label}: ${entryName(server)}`;
      if (!existsSync(launch.command)) {
        findings.push({
          ok: false,
          what: `${where}: its node ${launch.command} does not exist`,
          fix: reinstall,
        });
      } else if (!existsSync(launch.args[0]!)) {
        findings.push({
          ok: false,
          what: `${where}: its bin ${launch.args[0]} does not exist`,
          fix: reinstall,
        });
      } else {
        const result = await probe(launch, timeoutMs);
        findings.push(
          result.ok
            ? { ok: true, what: `${where}: starts and lists ${result.tools.length} tools (${file})` }
            : { ok: false, what: `${where}: ${result.reason}`, fix: reinstall },
        );
      }
    }
  }
  return findings;
}
