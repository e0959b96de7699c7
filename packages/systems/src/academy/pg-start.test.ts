// The academy on PostgreSQL at start and at migration: `migrate academy` twice changes nothing the second
// time, and the system refuses to start unless consulta_sql's credentials are SELECT-only.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRole } from '../../test/academy-engines.js';
import { StartError, SYSTEMS } from '../registry.js';
import { migrateAcademy, openAcademySystem } from './system.js';

const db: TestDatabase | undefined = await freshDatabase(
  'the academy on PostgreSQL at start and migration (packages/systems/src/academy/pg-start.test.ts)',
);
const analytics = testRole('academy_ro');
const roles: string[] = [analytics];
const PASSWORD = 's3creto-Ñ';
let firstLine = '';

const withEnv = async <T>(env: Record<string, string | undefined>, work: () => Promise<T>): Promise<T> => {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    return await work();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
};
const analyticsUrl = () => {
  const url = new URL(db!.urlAs(analytics));
  url.password = encodeURIComponent(PASSWORD);
  return url.toString();
};
const migrate = () =>
  withEnv({ ACADEMY_ANALYTICS_DATABASE_URL: analyticsUrl() }, () => SYSTEMS.academy.migrate(db!.url));

/** Everything the migration sets: the role, its settings and password, and every ACL it touches. */
const snapshot = async () =>
  db!.query(
    `SELECT a.rolname, a.rolsuper, a.rolinherit, a.rolcreaterole, a.rolcreatedb, a.rolcanlogin, a.rolreplication,
       a.rolbypassrls, a.rolpassword,
       (SELECT array_agg(s.setconfig::text ORDER BY s.setdatabase) FROM pg_db_role_setting s WHERE s.setrole = a.oid) AS settings,
       (SELECT datacl::text FROM pg_database WHERE datname = current_database()) AS database_acl,
       (SELECT string_agg(nspname || '=' || coalesce(nspacl::text, ''), ' ' ORDER BY nspname) FROM pg_namespace
         WHERE nspname IN ('academy', 'public')) AS schema_acls,
       (SELECT string_agg(relname || '=' || coalesce(relacl::text, ''), ' ' ORDER BY relname) FROM pg_class
         WHERE relnamespace = 'academy'::regnamespace) AS table_acls,
       (SELECT string_agg(p.oid::regprocedure::text || '=' || coalesce(proacl::text, ''), ' ' ORDER BY p.oid) FROM pg_proc p
         WHERE proname LIKE 'lo\\_%' OR proname IN ('loread', 'lowrite')) AS function_acls,
       (SELECT string_agg(coalesce(defaclacl::text, ''), ' ' ORDER BY oid) FROM pg_default_acl) AS default_acls,
       (SELECT version FROM academy.schema_version) AS version
     FROM pg_authid a WHERE a.rolname = $1`,
    [analytics],
  );

beforeAll(async () => {
  if (db) firstLine = await migrate();
});
afterAll(async () => {
  if (!db) return;
  for (const role of roles) {
    await db.query(`DROP OWNED BY "${role}"`).catch(() => undefined);
    await db.query(`DROP ROLE IF EXISTS "${role}"`);
  }
  await db.drop();
});

describe.skipIf(!db)('migrate academy on PostgreSQL', () => {
  it('creates the schema and the analytics role in one line that never shows the password', async () => {
    expect(firstLine).toMatch(
      /^academy: schema academy at version 3\/3 on postgres:\/\/.*; analytics role .* created/,
    );
    expect(firstLine).not.toContain(PASSWORD);
    expect(firstLine).not.toContain(encodeURIComponent(PASSWORD));
    const [role] = await snapshot();
    expect(role).toMatchObject({
      rolsuper: false,
      rolinherit: false,
      rolcreaterole: false,
      rolcreatedb: false,
    });
    expect(role!.settings.join(' ')).toMatch(/default_transaction_read_only=on.*statement_timeout=/);
  });

  it('is idempotent: a second run succeeds and changes nothing', async () => {
    const before = await snapshot();
    const line = await migrate();
    expect(line).toContain('kept');
    expect(await snapshot()).toEqual(before);
  });

  it('the migrated role passes the start check: the system opens with it', async () => {
    const system = await openAcademySystem({ databaseUrl: db!.url, analyticsUrl: analyticsUrl() });
    await system.close();
  });
});

/** A role of the test's own, set up by `grants` (SQL with %R for its name, %D for the database's). */
async function roleThat(...grants: string[]): Promise<string> {
  const role = testRole('academy_bad');
  roles.push(role);
  await db!.query(`CREATE ROLE "${role}" LOGIN`);
  await db!.query(`GRANT CONNECT ON DATABASE ${new URL(db!.url).pathname.slice(1)} TO "${role}"`);
  await db!.query(`GRANT USAGE ON SCHEMA academy TO "${role}"`);
  const database = new URL(db!.url).pathname.slice(1);
  for (const grant of grants) await db!.query(grant.replaceAll('%R', `"${role}"`).replaceAll('%D', database));
  return db!.urlAs(role);
}

const startFailure = (analyticsUrl: string | undefined) =>
  openAcademySystem({ databaseUrl: db!.url, analyticsUrl }).then(
    async (system) => {
      await system.close();
      return 'started';
    },
    (error: Error) => `${error.name}: ${error.message}`,
  );

describe.skipIf(!db)('the system refuses analytics credentials that can write', () => {
  it.each([
    ['the administrator (the store URL itself)', () => Promise.resolve(db!.url), /superuser/],
    [
      'a role granted INSERT',
      () => roleThat('GRANT SELECT, INSERT ON academy.avances TO %R'),
      /INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES or TRIGGER on avances/,
    ],
    ['a role granted TRIGGER', () => roleThat('GRANT TRIGGER ON academy.cursos TO %R'), /on cursos/],
    [
      'a member of another role',
      async () => roleThat(`GRANT "${analytics}" TO %R`),
      new RegExp(`member of ${analytics}`),
    ],
    [
      'the owner of a table in the schema',
      () => roleThat('CREATE TABLE academy.propia (a int)', 'ALTER TABLE academy.propia OWNER TO %R'),
      /owns propia in schema academy/,
    ],
    [
      'a role with CREATE on the schema',
      () => roleThat('GRANT CREATE ON SCHEMA academy TO %R'),
      /CREATE in schema academy/,
    ],
    [
      'a role with CREATE on public',
      () => roleThat('GRANT CREATE ON SCHEMA public TO %R'),
      /CREATE in schema public/,
    ],
    ['a role with CREATEDB', () => roleThat('ALTER ROLE %R CREATEDB'), /CREATEDB/],
    ['a role with CREATEROLE', () => roleThat('ALTER ROLE %R CREATEROLE'), /CREATEROLE/],
    ['a role with BYPASSRLS', () => roleThat('ALTER ROLE %R BYPASSRLS'), /BYPASSRLS/],
    [
      'a role that may write large objects',
      () => roleThat('GRANT EXECUTE ON FUNCTION lo_from_bytea(oid, bytea) TO %R'),
      /EXECUTE lo_from_bytea/,
    ],
    [
      'a role granted UPDATE on a large object',
      async () => {
        const [object] = await db!.query<{ oid: number }>('SELECT lo_create(0) AS oid');
        return roleThat(`GRANT UPDATE ON LARGE OBJECT ${object!.oid} TO %R`);
      },
      /UPDATE large objects/,
    ],
    [
      'a role whose sessions have lo_compat_privileges on',
      () => roleThat('ALTER ROLE %R SET lo_compat_privileges = on'),
      /lo_compat_privileges is on/,
    ],
    [
      'a role that may create temporary tables',
      () => roleThat('GRANT TEMPORARY ON DATABASE %D TO %R'),
      /TEMPORARY/,
    ],
  ])('refuses %s, naming ACADEMY_ANALYTICS_DATABASE_URL and the reason', async (_name, make, reason) => {
    const url = await make();
    const outcome = await startFailure(url);
    expect(outcome).toMatch(/^AnalyticsSettingError: ACADEMY_ANALYTICS_DATABASE_URL postgres:\/\//);
    expect(outcome).toMatch(reason);
  });

  it('refuses a missing analytics URL, and one where nothing answers', async () => {
    expect(await startFailure(undefined)).toMatch(
      /^AnalyticsSettingError: ACADEMY_ANALYTICS_DATABASE_URL is not set/,
    );
    expect(await startFailure('postgres://lector:clave@127.0.0.1:1/nada')).toMatch(
      /^AnalyticsSettingError: ACADEMY_ANALYTICS_DATABASE_URL postgres:\/\/lector@127\.0\.0\.1:1\/nada: PostgreSQL unusable/,
    );
  });

  it('code-systems academy (the registry) says it in one StartError naming that variable', async () => {
    for (const value of [undefined, db!.url]) {
      const error = await withEnv(
        { ACADEMY_DATABASE_URL: db!.url, ACADEMY_ANALYTICS_DATABASE_URL: value },
        () =>
          SYSTEMS.academy.create().then(
            () => undefined,
            (e: unknown) => e,
          ),
      );
      expect(error).toBeInstanceOf(StartError);
      expect((error as Error).message).toMatch(/^ACADEMY_ANALYTICS_DATABASE_URL /);
    }
  });
});

describe('migrate academy without PostgreSQL, and with one that does not answer', () => {
  it('creates (then finds up to date) the SQLite file when no URL is given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'code-academy-migrate-'));
    try {
      const file = join(dir, 'academy.db');
      expect(await migrateAcademy({ file })).toBe(`academy: SQLite ${file} is up to date`);
      expect(existsSync(file)).toBe(true);
      expect(await migrateAcademy({ file })).toBe(`academy: SQLite ${file} is up to date`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects, without the password, when nothing answers at the administrator URL', async () => {
    const error = await migrateAcademy({
      databaseUrl: 'postgres://admin:clave-secreta@127.0.0.1:1/nada',
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/ECONNREFUSED/);
    expect(error?.message).not.toContain('clave-secreta');
  });
});
