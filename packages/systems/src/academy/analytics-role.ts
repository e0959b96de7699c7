import { SQL_TIMEOUT_MS } from '@code-cluster/shared/academy';
import type { PgQueries } from '../storage/index.js';
import { ACADEMY_SCHEMA, NOT_ANALYTICS } from './postgres-store.js';

/**
 * The SELECT-only role of consulta_sql on PostgreSQL (`ACADEMY_ANALYTICS_DATABASE_URL`): the migration
 * creates and hardens it, and the system checks it at every start, refusing to run when it could write.
 * Grants are the real boundary on PostgreSQL (../shared/notes/read-only-sql.md): READ ONLY does not stop
 * large-object writes, dblink, notifications, advisory locks or session settings.
 */

/** The environment variable of the analytics credentials, for messages. */
export const ANALYTICS_VARIABLE = 'ACADEMY_ANALYTICS_DATABASE_URL';

/** Functions of pg_catalog (and extensions) revoked from PUBLIC: large objects, files, other servers. */
const REVOKED_FUNCTIONS = `(p.proname LIKE 'lo\\_%' OR p.proname IN ('loread', 'lowrite')
  OR p.proname LIKE 'dblink%' OR p.proname LIKE 'pg\\_read\\_%' OR p.proname LIKE 'pg\\_ls\\_%'
  OR p.proname = 'pg_stat_file')`;

interface RoleFacts {
  found: boolean;
  rolsuper: boolean;
  rolcreaterole: boolean;
  rolcreatedb: boolean;
  rolbypassrls: boolean;
  rolreplication: boolean;
  member_of: string[];
  owns: string[];
  writable: string[];
  create_in_schema: boolean;
  create_in_public: boolean;
  create_in_database: boolean;
  temp_in_database: boolean;
  large_objects: string[];
  owns_large_objects: boolean;
  updates_large_objects: boolean;
  lo_compat: boolean;
}

/**
 * Everything that lets `role` write, create or escape a SELECT in this database, in English for the
 * operator's log; empty when the role can only read. Works from any connection (the role's own at start,
 * the administrator's after a migration).
 */
export async function analyticsRoleProblems(
  db: PgQueries,
  role: string,
  schema = ACADEMY_SCHEMA,
): Promise<string[]> {
  const facts = await db.row<RoleFacts>(
    `WITH r AS (SELECT * FROM pg_roles WHERE rolname = $1), s AS (SELECT oid FROM pg_namespace WHERE nspname = $2)
     SELECT true AS found, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls, r.rolreplication,
       ARRAY(SELECT g.rolname::text FROM pg_auth_members m JOIN pg_roles g ON g.oid = m.roleid
             WHERE m.member = r.oid ORDER BY 1) AS member_of,
       ARRAY(SELECT 'schema ' || $2 FROM s JOIN pg_namespace n ON n.oid = s.oid WHERE n.nspowner = r.oid
             UNION ALL SELECT c.relname::text FROM pg_class c, s WHERE c.relnamespace = s.oid AND c.relowner = r.oid
             UNION ALL SELECT p.proname::text || '()' FROM pg_proc p, s WHERE p.pronamespace = s.oid AND p.proowner = r.oid
             UNION ALL SELECT t.typname::text FROM pg_type t, s
               WHERE t.typnamespace = s.oid AND t.typowner = r.oid AND t.typrelid = 0 AND t.typelem = 0) AS owns,
       ARRAY(SELECT c.relname::text FROM pg_class c, s WHERE c.relnamespace = s.oid
               AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
               AND has_table_privilege(r.oid, c.oid, 'INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER')
             ORDER BY 1) AS writable,
       coalesce((SELECT has_schema_privilege(r.oid, s.oid, 'CREATE') FROM s), false) AS create_in_schema,
       EXISTS (SELECT 1 FROM pg_namespace n WHERE n.nspname = 'public'
               AND has_schema_privilege(r.oid, n.oid, 'CREATE')) AS create_in_public,
       has_database_privilege(r.oid, current_database(), 'CREATE') AS create_in_database,
       has_database_privilege(r.oid, current_database(), 'TEMPORARY') AS temp_in_database,
       ARRAY(SELECT DISTINCT p.proname::text FROM pg_proc p
             WHERE ${REVOKED_FUNCTIONS} AND has_function_privilege(r.oid, p.oid, 'EXECUTE') ORDER BY 1) AS large_objects,
       EXISTS (SELECT 1 FROM pg_largeobject_metadata WHERE lomowner = r.oid) AS owns_large_objects,
       EXISTS (SELECT 1 FROM pg_largeobject_metadata m, aclexplode(m.lomacl) a
               WHERE a.grantee IN (r.oid, 0) AND a.privilege_type = 'UPDATE') AS updates_large_objects,
       current_setting('lo_compat_privileges') = 'on' AS lo_compat
     FROM r`,
    [role, schema],
  );
  if (!facts) return [`there is no role ${role}`];
  // A superuser can do everything: the rest would only lengthen the line.
  if (facts.rolsuper) return ['it is a superuser'];
  const problems: string[] = [];
  for (const [flag, name] of [
    [facts.rolcreaterole, 'CREATEROLE'],
    [facts.rolcreatedb, 'CREATEDB'],
    [facts.rolbypassrls, 'BYPASSRLS'],
    [facts.rolreplication, 'REPLICATION'],
  ] as const) {
    if (flag) problems.push(`it has ${name}`);
  }
  if (facts.member_of.length > 0) problems.push(`it is a member of ${facts.member_of.join(', ')}`);
  if (facts.owns.length > 0) problems.push(`it owns ${facts.owns.join(', ')} in schema ${schema}`);
  if (facts.writable.length > 0) {
    problems.push(
      `it may INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES or TRIGGER on ${facts.writable.join(', ')}`,
    );
  }
  if (facts.create_in_schema) problems.push(`it may CREATE in schema ${schema}`);
  if (facts.create_in_public) problems.push('it may CREATE in schema public');
  if (facts.create_in_database) problems.push('it may CREATE schemas in the database');
  if (facts.temp_in_database) problems.push('it may create TEMPORARY tables');
  if (facts.large_objects.length > 0) {
    problems.push(`it may EXECUTE ${facts.large_objects.join(', ')} (large objects, files, dblink)`);
  }
  if (facts.owns_large_objects) problems.push('it owns large objects');
  if (facts.updates_large_objects) problems.push('it may UPDATE large objects');
  // Measured in the session that asks: the role's own at start.
  if (facts.lo_compat) problems.push('lo_compat_privileges is on (large objects writable by anyone)');
  return problems;
}

/** The role name and password of the analytics URL. */
export function analyticsCredentials(url: string): { role: string; password: string | undefined } {
  const parsed = new URL(url);
  const role = decodeURIComponent(parsed.username);
  if (!role) throw new Error(`${ANALYTICS_VARIABLE} names no user: the SELECT-only role goes there`);
  return { role, password: parsed.password ? decodeURIComponent(parsed.password) : undefined };
}

/**
 * Creates the analytics role if it is missing and (re)applies its hardening and grants, idempotently: on
 * an administrator's connection, after the schema's migrations ran. Never prints or logs the password.
 */
export async function ensureAnalyticsRole(db: PgQueries, url: string): Promise<string> {
  const { default: pg } = await import('pg');
  const { role, password } = analyticsCredentials(url);
  const who = pg.escapeIdentifier(role);
  const schema = pg.escapeIdentifier(ACADEMY_SCHEMA);
  const exists = await db.row('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS';
  if (!exists) {
    await db.run(
      `CREATE ROLE ${who} ${attributes} PASSWORD ${password === undefined ? 'NULL' : pg.escapeLiteral(password)}`,
    );
  } else {
    // An existing role keeps its password (the operator's); only its attributes are made safe again.
    await db.run(`ALTER ROLE ${who} ${attributes}`);
  }
  const database = (await db.row<{ name: string }>('SELECT current_database() AS name'))!.name;
  const dbName = pg.escapeIdentifier(database);
  const statements = [
    `ALTER ROLE ${who} IN DATABASE ${dbName} SET default_transaction_read_only = on`,
    `ALTER ROLE ${who} IN DATABASE ${dbName} SET statement_timeout = '${SQL_TIMEOUT_MS}ms'`,
    `ALTER ROLE ${who} IN DATABASE ${dbName} SET idle_in_transaction_session_timeout = '${SQL_TIMEOUT_MS * 5}ms'`,
    // PUBLIC keeps CONNECT (the other systems' roles may rely on it); temporary tables are writes.
    `REVOKE TEMPORARY ON DATABASE ${dbName} FROM PUBLIC`,
    `REVOKE ALL ON DATABASE ${dbName} FROM ${who}`,
    `GRANT CONNECT ON DATABASE ${dbName} TO ${who}`,
    'REVOKE CREATE ON SCHEMA public FROM PUBLIC',
    `REVOKE ALL ON SCHEMA public FROM ${who}`,
    `REVOKE ALL ON SCHEMA ${schema} FROM PUBLIC`,
    `REVOKE ALL ON SCHEMA ${schema} FROM ${who}`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${who}`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM PUBLIC`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${who}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${schema} FROM ${who}`,
    `REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${schema} FROM PUBLIC`,
    // Future tables are readable by default; a future private table revokes it in its migration.
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT ON TABLES TO ${who}`,
  ];
  for (const statement of statements) await db.run(statement);
  const surface = await db.rows<{ name: string }>(
    `SELECT c.relname::text AS name FROM pg_class c WHERE c.relnamespace = $1::regnamespace
       AND c.relkind IN ('r', 'v', 'm') AND NOT (c.relname::text = ANY ($2)) ORDER BY 1`,
    [ACADEMY_SCHEMA, NOT_ANALYTICS],
  );
  for (const { name } of surface) {
    await db.run(`GRANT SELECT ON ${schema}.${pg.escapeIdentifier(name)} TO ${who}`);
  }
  // Large objects (writable under READ ONLY on PostgreSQL 15), files and other servers: nobody's by default.
  const functions = await db.rows<{ signature: string }>(
    `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p WHERE ${REVOKED_FUNCTIONS} ORDER BY 1`,
  );
  for (const { signature } of functions) {
    await db.run(`REVOKE EXECUTE ON FUNCTION ${signature} FROM PUBLIC`);
    await db.run(`REVOKE EXECUTE ON FUNCTION ${signature} FROM ${who}`);
  }
  const problems = await analyticsRoleProblems(db, role);
  if (problems.length > 0) {
    throw new Error(`the analytics role ${role} can still write after the migration: ${problems.join('; ')}`);
  }
  return `analytics role ${role} ${exists ? 'kept' : 'created'}, SELECT only on ${surface.length} tables and views`;
}
