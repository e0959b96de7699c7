import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { engineForTests } from '../../../scripts/engines/engines.mjs';
import { freePort } from './ports.js';

/** A database of one test file's own on the test PostgreSQL: created empty, dropped with everything in it. */
export interface TestDatabase {
  /** Its URL, as the administrator that created it (trust auth on the test engine). */
  url: string;
  /** The same URL for another role (created by the test), with an optional password. */
  urlAs(role: string, password?: string): string;
  /** Runs one statement as the administrator in this database: checks, role set-up. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/**
 * A fresh database for `suite`, or undefined (said on stderr) when no PostgreSQL answers and engines are
 * not required; in CI (`CI=true`) a missing engine throws instead.
 */
export async function freshDatabase(suite: string): Promise<TestDatabase | undefined> {
  const adminUrl: string | undefined = await engineForTests('postgres', suite);
  if (!adminUrl) return undefined;
  const name = `code_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const urlAs = (role: string, password?: string) => {
    const url = new URL(adminUrl);
    url.username = role;
    url.password = password ?? '';
    url.pathname = `/${name}`;
    return url.toString();
  };
  const url = urlAs(new URL(adminUrl).username || 'postgres');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  return {
    url,
    urlAs,
    query: async (sql, params = []) => (await pool.query(sql, params)).rows,
    drop: async () => {
      await pool.end();
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Where Debian puts PostgreSQL's server binaries (the version the machine runs). */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'postgres')));
  return versions.length ? join(root, versions.sort().at(-1)!, 'bin') : undefined;
}

/**
 * A PostgreSQL of the test's own (its own data dir and port, trust auth), which the test may kill -9 and
 * start again on the same dir; the machine's PostgreSQL is never touched. PostgreSQL refuses to run as
 * root, so under root it runs as the `postgres` user.
 */
export class OwnPostgres {
  private child: ChildProcess | undefined;
  private constructor(
    readonly bin: string,
    readonly dataDir: string,
    readonly port: number,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  static async start(bin: string): Promise<OwnPostgres> {
    const dataDir = mkdtempSync(join(tmpdir(), 'code-pg-'));
    const user = process.getuid?.() === 0 ? postgresUser() : undefined;
    if (user) chownSync(dataDir, user.uid, user.gid);
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8'],
      { stdio: 'pipe', ...(user ?? {}) },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr.toString()}`);
    const server = new OwnPostgres(bin, dataDir, await freePort(), user);
    await server.restart();
    return server;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Starts the server (again) and resolves once it accepts connections. */
  async restart(): Promise<void> {
    const child = spawn(
      join(this.bin, 'postgres'),
      [
        '-D',
        this.dataDir,
        '-p',
        String(this.port),
        '-k',
        this.dataDir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
      ],
      { stdio: 'ignore', ...(this.user ?? {}) },
    );
    this.child = child;
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
      const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => undefined);
        if (tries > 150) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** kill -9 of the postmaster; its backends end when they notice (PostgreSQL's own crash handling). */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // Orphaned backends keep the port's lock file until they exit; wait for the postmaster.pid to go stale.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  async remove(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root and there is no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}
