import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcessTransport, SystemError } from '@code-cluster/shared';
import { LabClient, MAX_SUBMISSION_BYTES } from '@code-cluster/shared/lab';
import { describe, expect, it, type TestContext } from 'vitest';
import { type LabPlace, labEngines } from '../../test/lab-engines.js';
import { createAcademySystem } from '../academy/index.js';
import { serveHttp } from '../http/serve.js';
import { openDatabase } from '../storage/index.js';
import { MIGRATIONS, SqliteLabStore } from './sqlite-store.js';
import type { LabSystem, LabSystemOptions } from './system.js';

const engines = labEngines('the lab system on PostgreSQL (packages/systems/src/lab/system.test.ts)');

const client = (system: LabSystem) => new LabClient(inProcessTransport(() => system.handler));

async function failure(work: Promise<unknown>): Promise<SystemError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof SystemError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

const TOOL = JSON.stringify(
  {
    name: 'proximos_pases',
    title: 'Próximos pases',
    description: 'Ventanas de visibilidad futuras. Úsala cuando necesites planificar un contacto.',
    inputSchema: {
      type: 'object',
      properties: { horas: { type: 'integer', minimum: 1, maximum: 72 }, estacion: { type: 'string' } },
      required: ['estacion'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  null,
  2,
);

/** A transcript whose listed schema has a pattern that backtracks for minutes on the call below it. */
const REDOS = [
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"a","version":"1"}}}',
  '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
  '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
  '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"eco","inputSchema":{"type":"object","properties":{"texto":{"type":"string","pattern":"^(a+)+$"}}}}]}}',
  `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"eco","arguments":{"texto":"${'a'.repeat(40)}!"}}}`,
  '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Invalid params"}}',
].join('\n');

describe.each(engines)('lab system on $name', (engine) => {
  /** The test's place on this engine (the PostgreSQL leg skips when no PostgreSQL answers). */
  const here = (ctx: TestContext): LabPlace => engine.place() ?? ctx.skip('no PostgreSQL here');
  /** A lab system on the test's place, and a client of it. */
  async function open(place: LabPlace, options: LabSystemOptions = {}) {
    const system = await place.open(options);
    return { system, lab: client(system) };
  }

  describe("students are the academy's", () => {
    it('checks a student against the reference roster while the academy has no database yet', async (ctx) => {
      const { lab } = await open(here(ctx));
      const known = await lab.startSession({ lab: 'mcp-handshake', student: 'tania-cruz' });
      expect(known).toMatchObject({ student_verified: true });
      expect(known.student_note).toContain('la lista de referencia de la academia');
      const unknown = await failure(lab.startSession({ lab: 'mcp-handshake', student: 'zoe-nadie' }));
      expect(unknown.status).toBe(404);
      expect(unknown.message).toContain('No existe el estudiante "zoe-nadie" en la academia');
      expect(unknown.message).toContain('palabras en minúsculas unidas por guiones (p. ej. ana-garcia)');
      expect(unknown.message).toContain('SELECT id, nombre FROM estudiantes');
    });

    it("reads the academy's own database in the same data dir when there is one", async (ctx) => {
      const place = here(ctx);
      const { lab } = await open(place);
      const academyFile = join(place.dir, 'academy.db');
      createAcademySystem({ file: academyFile }).close();
      const db = openDatabase(academyFile);
      db.prepare(
        "INSERT INTO estudiantes (id, nombre, pais, cohorte, alta_en) VALUES ('zoe-nueva', 'Zoe', 'MX', '2026-B', '2026-11-01')",
      ).run();
      db.close();
      const session = await lab.startSession({ lab: 'mcp-handshake', student: 'zoe-nueva' });
      expect(session).toMatchObject({ student_verified: true });
      expect(session.student_note).toContain('la base de datos de la academia');
    });

    it('asks a remote academy when told to, and opens the session unverified when it cannot', async (ctx) => {
      const place = here(ctx);
      const academy = createAcademySystem({
        file: join(mkdtempSync(join(tmpdir(), 'code-academy-')), 'a.db'),
      });
      const service = await serveHttp(academy.handler, { port: 0 });
      try {
        const { lab } = await open(place, { academyApiUrl: service.url });
        expect(await lab.startSession({ lab: 'mcp-esquemas', student: 'bruno-diaz' })).toMatchObject({
          student_verified: true,
        });
        expect((await failure(lab.startSession({ lab: 'mcp-esquemas', student: 'zoe-nadie' }))).status).toBe(
          404,
        );
      } finally {
        await service.close();
        academy.close();
      }
      // The academy is gone: the lab still opens the session, and says it could not check the student.
      const { lab } = await open(place, { academyApiUrl: service.url });
      const unverified = await lab.startSession({ lab: 'mcp-esquemas', student: 'bruno-diaz' });
      expect(unverified.student_verified).toBe(false);
      expect(unverified.student_note).toMatch(
        /^No se pudo comprobar el estudiante en la academia \(.*no está disponible/,
      );
    });
  });

  it('lists both labs with their rules and serves each statement as markdown', async (ctx) => {
    const { lab } = await open(here(ctx));
    const { labs } = await lab.listLabs();
    expect(labs.map((l) => l.id)).toEqual(['mcp-handshake', 'mcp-esquemas']);
    expect(labs[0]!.rules.map((r) => r.id)).toContain('capas_de_error');
    expect((await lab.statement('mcp-handshake')).markdown).toMatch(/^# Laboratorio mcp-handshake/);
    expect((await lab.getLab('mcp-esquemas')).hints.length).toBeGreaterThan(0);
    const missing = await failure(lab.statement('no-existe'));
    expect(missing.status).toBe(404);
    expect(missing.message).toContain('mcp-handshake, mcp-esquemas');
  });

  it('grades a submission in the background, rule by rule, and keeps the result', async (ctx) => {
    const place = here(ctx);
    const { lab, system } = await open(place, { stepDelayMs: 20 });
    const session = await lab.startSession({ lab: 'mcp-esquemas', student: 'ana-garcia' });
    const submitted = await lab.submit(session.id, TOOL);
    expect(submitted).toMatchObject({ status: 'pendiente', rules_total: 6, rules_done: 0 });
    await new Promise((r) => setTimeout(r, 50));
    const midway = await lab.result(submitted.id);
    expect(midway.passed).toBeNull();
    expect(midway.rules.length).toBeLessThan(6);
    await system.idle();
    const done = await lab.result(submitted.id);
    expect(done.submission).toMatchObject({ status: 'evaluada', rules_done: 6 });
    expect(done.passed).toBe(false);
    const tight = done.rules.find((r) => r.rule === 'esquema_ajustado')!;
    expect(tight.outcome).toBe('fallida');
    expect(tight.findings.map((f) => f.line)).toEqual([13]);
    expect(tight.findings[0]!.message).toContain("'estacion' es un texto sin maxLength");
    expect((await lab.getSession(session.id)).submissions).toBe(1);
    // Stored: another system on the same store reads the same result.
    const reread = client(await place.open());
    expect((await reread.result(submitted.id)).rules).toEqual(done.rules);
  });

  it('resumes a grading a previous process left unfinished', async (ctx) => {
    const place = here(ctx);
    const first = await open(place, { stepDelayMs: 1_000 });
    const session = await first.lab.startSession({ lab: 'mcp-esquemas', student: 'bruno-diaz' });
    const submitted = await first.lab.submit(session.id, TOOL);
    await first.system.close();
    const second = await place.open();
    await second.idle();
    const result = await client(second).result(submitted.id);
    expect(result.submission.status).toBe('evaluada');
  });

  it('hands the grading in progress back when it stops, spending no attempt and keeping no result', async (ctx) => {
    const place = here(ctx);
    const { lab, system } = await open(place, { stepDelayMs: 200 });
    const session = await lab.startSession({ lab: 'mcp-esquemas', student: 'ana-garcia' });
    const submitted = await lab.submit(session.id, TOOL);
    for (;;) {
      if ((await lab.result(submitted.id)).rules.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await system.close();
    const store = await place.store();
    expect(await store.submission(submitted.id)).toMatchObject({
      status: 'pendiente',
      attempts: 0,
      rules_done: 0,
      claimed_ms: null,
    });
    expect(await store.ruleResults(submitted.id)).toEqual([]);
  });

  it('marks a submission that overruns the grading budget as not finished, with the reason', async (ctx) => {
    const { lab, system } = await open(here(ctx), { gradingBudgetMs: 300 });
    const session = await lab.startSession({ lab: 'mcp-handshake', student: 'ana-garcia' });
    const submitted = await lab.submit(session.id, REDOS);
    // The system answers while the pattern runs in the sandbox.
    expect((await lab.health()).status).toBe('ok');
    await system.idle();
    const result = await lab.result(submitted.id);
    expect(result.submission.status).toBe('no_terminada');
    expect(result.passed).toBe(false);
    expect(result.submission.reason).toMatch(/no terminó dentro de los 0.3 s[\s\S]*"\^\(a\+\)\+\$"/);
    expect((await system.store.submission(submitted.id))!.attempts).toBe(1);
  });

  it('gives up on a submission whose graders keep dying instead of grading it on every restart', async (ctx) => {
    const place = here(ctx);
    const first = await open(place, { stepDelayMs: 1_000 });
    const session = await first.lab.startSession({ lab: 'mcp-esquemas', student: 'ana-garcia' });
    const submitted = await first.lab.submit(session.id, TOOL);
    // A clean stop hands the grading back without spending an attempt.
    await first.system.close();
    const store = await place.store();
    expect(await store.submission(submitted.id)).toMatchObject({ status: 'pendiente', attempts: 0 });
    // Three graders claimed it and died mid-way (no release), each claim long stale for the next one.
    for (const at of [1_000, 100_000, 200_000])
      expect(await store.claim(submitted.id, at, 60_000)).toBe(true);
    // A claim that is not stale yet is nobody else's to take.
    expect(await store.claim(submitted.id, 210_000, 60_000)).toBe(false);
    const next = await place.open({ now: () => 300_000 });
    await next.idle();
    const result = await client(next).result(submitted.id);
    expect(result.submission.status).toBe('no_terminada');
    expect(result.passed).toBe(false);
    expect(result.submission.reason).toContain('se interrumpió 3 veces sin terminar');
    expect(result.rules).toEqual([]);
  });

  it('recognises a tools/list wrapper in mcp-esquemas: one tool is graded, several are refused by name', async (ctx) => {
    const { lab, system } = await open(here(ctx));
    const session = await lab.startSession({ lab: 'mcp-esquemas', student: 'ana-garcia' });
    const one = await lab.submit(session.id, JSON.stringify({ tools: [JSON.parse(TOOL)] }, null, 2));
    const other = { ...JSON.parse(TOOL), name: 'estado_estacion' };
    const two = await lab.submit(session.id, JSON.stringify({ tools: [JSON.parse(TOOL), other] }));
    await system.idle();
    const graded = await lab.result(one.id);
    expect(graded.rules.filter((r) => r.outcome === 'fallida').map((r) => r.rule)).toEqual([
      'esquema_ajustado',
    ]);
    const refused = await lab.result(two.id);
    const readable = refused.rules.find((r) => r.rule === 'definicion_legible')!;
    expect(readable.outcome).toBe('fallida');
    expect(readable.findings[0]!.message).toContain(
      'es una lista de 2 herramientas ("proximos_pases", "estado_estacion"), como la respuesta de tools/list',
    );
    expect(refused.rules.filter((r) => r.rule !== 'definicion_legible').map((r) => r.outcome)).toEqual(
      Array(5).fill('no_aplica'),
    );
    expect(JSON.stringify(refused.rules)).not.toContain('undefined');
  });

  it('refuses a submission over 64 KiB naming the limit and the size, storing nothing', async (ctx) => {
    const { lab } = await open(here(ctx));
    const session = await lab.startSession({ lab: 'mcp-handshake', student: 'carla-mendez' });
    const error = await failure(lab.submit(session.id, 'ñ'.repeat(40_000)));
    expect(error.status).toBe(413);
    expect(error.message).toContain(
      `ocupa 80000 bytes y el límite es ${MAX_SUBMISSION_BYTES} bytes (64 KiB)`,
    );
    expect((await lab.getSession(session.id)).submissions).toBe(0);
  });

  it('refuses a submission over its length bound with 413 from the schema, naming the field and the bound', async (ctx) => {
    const { lab } = await open(here(ctx));
    const session = await lab.startSession({ lab: 'mcp-handshake', student: 'carla-mendez' });
    const error = await failure(lab.submit(session.id, 'x'.repeat(MAX_SUBMISSION_BYTES + 1)));
    expect(error.status).toBe(413);
    expect(error.message).toContain("Campo 'content' inválido");
    expect(error.message).toContain(`<=${MAX_SUBMISSION_BYTES}`);
    expect((await lab.getSession(session.id)).submissions).toBe(0);
  });

  it('refuses a submission with a raw NUL character naming its line, storing nothing', async (ctx) => {
    const { lab } = await open(here(ctx));
    const session = await lab.startSession({ lab: 'mcp-handshake', student: 'carla-mendez' });
    const error = await failure(lab.submit(session.id, '{"jsonrpc":"2.0"}\n{"a":"\u0000"}'));
    expect(error.status).toBe(422);
    expect(error.message).toContain('contiene el carácter NUL (U+0000) en la línea 2');
    expect((await lab.getSession(session.id)).submissions).toBe(0);
  });

  it('refuses unknown labs, sessions and submissions, and malformed students, naming them', async (ctx) => {
    const { lab } = await open(here(ctx));
    expect((await failure(lab.startSession({ lab: 'mcp-nada', student: 'ana' }))).message).toContain(
      'No existe el laboratorio "mcp-nada"',
    );
    const malformed = await failure(lab.startSession({ lab: 'mcp-handshake', student: 'con espacios' }));
    expect(malformed.status).toBe(400);
    expect(malformed.message).toContain("Campo 'student' inválido");
    expect(malformed.message).toContain('"con espacios"');
    // The one student id format of the cluster is the academy's: `ana.garcia` is refused.
    expect((await failure(lab.startSession({ lab: 'mcp-handshake', student: 'ana.garcia' }))).status).toBe(
      400,
    );
    expect((await failure(lab.submit('ses-000000000000', 'x'))).message).toContain('No existe la sesión');
    expect((await failure(lab.result('ent-000000000000'))).status).toBe(404);
  });
});

describe('lab store on SQLite', () => {
  it('keeps the sessions, submissions and results of a database written before attempts existed', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'code-lab-')), 'lab.db');
    const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 1) });
    old.exec(`INSERT INTO session VALUES ('ses-000000000001', 'mcp-esquemas', 'ana-garcia', 1000);
      INSERT INTO submission (id, session_id, content, size_bytes, submitted_ms, status, rules_total, rules_done,
                              finished_ms)
        VALUES ('ent-000000000001', 'ses-000000000001', '{}', 2, 2000, 'evaluada', 6, 1, 3000);
      INSERT INTO rule_result VALUES ('ent-000000000001', 0, 'definicion_legible', 'x', 'superada', '[]');`);
    old.close();
    const store = new SqliteLabStore(file);
    expect(await store.submission('ent-000000000001')).toMatchObject({
      status: 'evaluada',
      student: 'ana-garcia',
      attempts: 0,
      reason: null,
    });
    expect(await store.ruleResults('ent-000000000001')).toEqual([
      { rule: 'definicion_legible', title: 'x', outcome: 'superada', findings: [] },
    ]);
    await store.close();
  });
});
