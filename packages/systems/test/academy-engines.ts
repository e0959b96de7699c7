// The academy's tests on both engines: SQLite (a file in a temp dir) always, PostgreSQL (a database of
// the test's own, migrated with a SELECT-only analytics role) when the test engine answers.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import pg from 'pg';
import {
  type AcademySystem,
  type AcademySystemOptions,
  migrateAcademy,
  openAcademySystem,
} from '../src/academy/index.js';

export interface OpenedAcademy {
  system: AcademySystem;
  client: AcademyClient;
  /** Where its data lives: pass it to `open` again to reopen the same data. */
  place: string;
}

export interface AcademyEngine {
  name: 'SQLite' | 'PostgreSQL';
  open(options?: AcademySystemOptions, place?: string): Promise<OpenedAcademy>;
  /** The PostgreSQL database behind `place` (administrator's access), for checks. */
  database(place: string): TestDatabase | undefined;
  /** Closes every system it opened (and drops its databases and role at the very end). */
  closeAll(): Promise<void>;
  dispose(): Promise<void>;
}

/** A role name of this test run's own: roles are shared by every database of the test engine. */
export const testRole = (prefix: string) => `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;

export function sqliteEngine(): AcademyEngine {
  const dirs: string[] = [];
  const systems: AcademySystem[] = [];
  return {
    name: 'SQLite',
    async open(options = {}, place) {
      const file =
        place ?? join(dirs[dirs.push(mkdtempSync(join(tmpdir(), 'code-academy-'))) - 1]!, 'academy.db');
      const system = await openAcademySystem({ ...options, file });
      systems.push(system);
      return { system, client: new AcademyClient(inProcessTransport(() => system.handler)), place: file };
    },
    database: () => undefined,
    async closeAll() {
      for (const system of systems.splice(0)) await system.close();
    },
    async dispose() {
      await this.closeAll();
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL, or undefined (said on stderr) when the test engine does not answer. */
export async function postgresEngine(suite: string): Promise<AcademyEngine | undefined> {
  const first = await freshDatabase(suite);
  if (!first) return undefined;
  const role = testRole('academy_ro');
  const databases = new Map<string, TestDatabase>();
  const systems: AcademySystem[] = [];
  let spare: TestDatabase | undefined = first;
  const engine: AcademyEngine = {
    name: 'PostgreSQL',
    async open(options = {}, place) {
      let db = place ? databases.get(place) : undefined;
      if (!db) {
        db = spare ?? (await freshDatabase(suite))!;
        spare = undefined;
        databases.set(db.url, db);
        await migrateAcademy({ databaseUrl: db.url, analyticsUrl: db.urlAs(role) });
      }
      const system = await openAcademySystem({
        ...options,
        databaseUrl: db.url,
        analyticsUrl: db.urlAs(role),
      });
      systems.push(system);
      return { system, client: new AcademyClient(inProcessTransport(() => system.handler)), place: db.url };
    },
    database: (place) => databases.get(place),
    async closeAll() {
      for (const system of systems.splice(0)) await system.close();
    },
    async dispose() {
      await engine.closeAll();
      const admin = first.url;
      for (const db of databases.values()) await db.drop();
      if (spare) await spare.drop();
      await dropRole(admin, role);
    },
  };
  return engine;
}

/** Drops a test role once the databases holding its grants are gone (from the engine's `postgres` db). */
export async function dropRole(anyUrl: string, role: string): Promise<void> {
  const url = new URL(anyUrl);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`);
  } finally {
    await client.end();
  }
}

/** Both engines for a test file (top-level await): SQLite first, PostgreSQL when it answers. */
export async function academyEngines(suite: string): Promise<AcademyEngine[]> {
  const postgres = await postgresEngine(suite);
  return postgres ? [sqliteEngine(), postgres] : [sqliteEngine()];
}

/**
 * A checksum of every table of the academy's schema (each table's rows in a fixed order), its sequences,
 * the large objects (how many, and their pages' contents) and every relation outside the catalogs (a
 * temporary table shows): equal before and after means the database did not change.
 */
export async function pgChecksum(db: TestDatabase): Promise<string> {
  const tables = await db.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c WHERE c.relnamespace = 'academy'::regnamespace
       AND c.relkind IN ('r', 'p', 'S') ORDER BY 1`,
  );
  const parts: string[] = [];
  for (const { name, kind } of tables) {
    const table = `academy.${pg.escapeIdentifier(name)}`;
    const [row] = await db.query<{ sum: string | null }>(
      kind === 'S'
        ? `SELECT last_value || ':' || is_called AS sum FROM ${table}`
        : `SELECT md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS sum FROM ${table} t`,
    );
    parts.push(`${name}:${row!.sum}`);
  }
  const [objects] = await db.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM pg_largeobject_metadata) || '/' || (SELECT count(*) FROM pg_largeobject) || '/' ||
       (SELECT coalesce(md5(string_agg(loid || ':' || pageno || ':' || md5(data), ',' ORDER BY loid, pageno)), '')
        FROM pg_largeobject) AS n`,
  );
  const [schemas] = await db.query<{ list: string }>(
    `SELECT string_agg(relname || '@' || relnamespace::regnamespace::text, ',' ORDER BY relname, relnamespace)
       AS list FROM pg_class
     WHERE relnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)`,
  );
  return `${parts.join(' ')} largeobjects:${objects!.n} relations:${schemas!.list}`;
}
