// The lab system's tests run on both engines of its store: a SQLite file in a temp dir, and PostgreSQL (a
// database of the test file's own, skipped when no PostgreSQL answers and engines are not required).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { openPostgresLabStore } from '../src/lab/postgres-store.js';
import { SqliteLabStore } from '../src/lab/sqlite-store.js';
import type { LabStore } from '../src/lab/store.js';
import { createLabSystem, type LabSystem, type LabSystemOptions, openLabSystem } from '../src/lab/system.js';

/** One test's store and data dir: every system a test opens shares them, as processes on one data dir do. */
export interface LabPlace {
  /** A temp data dir of the test's own (the academy's `academy.db` goes here). */
  dir: string;
  /** The SQLite file; on PostgreSQL, the database's URL. */
  where: string;
  /** A lab system on the place's store (on PostgreSQL, a pool of its own: another replica). */
  open(options?: LabSystemOptions): Promise<LabSystem>;
  /** The bare store, for a test to write what a dead grader would have left. */
  store(): Promise<LabStore>;
}

export interface LabEngine {
  name: 'SQLite' | 'PostgreSQL';
  /** The current test's place; undefined when the engine is not here (the test skips). */
  place(): LabPlace | undefined;
}

/**
 * Both engines, with the hooks that give each test a fresh place and close what it opened. `suite` names
 * the test file for the message said when PostgreSQL is not here.
 */
export function labEngines(suite: string): LabEngine[] {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await freshDatabase(suite);
  });
  afterAll(() => database?.drop());

  const opened: Array<{ close(): Promise<void> }> = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const thing of opened.splice(0).reverse()) await thing.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const track = <T extends { close(): Promise<void> }>(thing: T): T => {
    opened.push(thing);
    return thing;
  };
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-lab-'));
    dirs.push(dir);
    return dir;
  };

  let sqlite: LabPlace | undefined;
  beforeEach(() => {
    const dir = newDir();
    const file = join(dir, 'lab.db');
    sqlite = {
      dir,
      where: file,
      open: async (options = {}) => track(createLabSystem({ file, ...options })),
      store: async () => track(new SqliteLabStore(file)),
    };
  });

  let postgres: LabPlace | undefined;
  beforeEach(async () => {
    postgres = undefined;
    if (!database) return;
    // The lab's whole schema goes: every test starts from an empty database, as from a new file.
    await database.query('DROP SCHEMA IF EXISTS lab CASCADE');
    const dir = newDir();
    const url = database.url;
    postgres = {
      dir,
      where: url,
      open: async (options = {}) =>
        track(await openLabSystem({ academyFile: join(dir, 'academy.db'), ...options, databaseUrl: url })),
      store: async () => track(await openPostgresLabStore({ url })),
    };
  });

  return [
    { name: 'SQLite', place: () => sqlite },
    { name: 'PostgreSQL', place: () => postgres },
  ];
}
