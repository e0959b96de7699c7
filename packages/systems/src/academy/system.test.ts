import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SystemError } from '@code-cluster/shared';
import { rejectionOf } from '@code-cluster/testkit';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { academyEngines } from '../../test/academy-engines.js';
import { openDatabase } from '../storage/index.js';
import { MIGRATIONS } from './sqlite-store.js';

// The same assertions on SQLite and, when the test engine answers, on PostgreSQL.
const NOW = Date.parse('2026-06-27T10:30:00Z');
const engines = await academyEngines('the academy system (packages/systems/src/academy/system.test.ts)');
afterAll(async () => {
  for (const engine of engines) await engine.dispose();
});

const refusal = (work: Promise<unknown>) => rejectionOf<SystemError>(work);

describe.each(engines)('academy on $name', (engine) => {
  const open = (place?: string) => engine.open({ now: () => NOW }, place);
  afterEach(() => engine.closeAll());

  describe('seed data', () => {
    it('has four courses, eleven lessons, twenty students with progress, and the MCP course first', async () => {
      const { client } = await open();
      const { courses } = await client.searchCourses();
      expect(courses.map((c) => c.id)).toEqual(['mcp', 'orbitas', 'estaciones-terrenas', 'sql-analitica']);
      expect(courses.reduce((n, c) => n + c.lesson_count, 0)).toBe(11);
      expect(courses[0]).toMatchObject({ student_count: 20, lesson_count: 4 });
      const progress = await client.query({ sql: 'SELECT count(*) AS n FROM avances' });
      expect(progress.rows[0]![0]).toBeGreaterThan(20);
    });

    it('teaches N×M → N+M in the lesson mcp-01-nxm, in Spanish', async () => {
      const { client } = await open();
      const lesson = await client.getLesson('mcp', 'mcp-01-nxm');
      expect(lesson).toMatchObject({
        position: 1,
        quiz: 'quiz-mcp-01',
        course_title: 'Model Context Protocol desde cero',
      });
      expect(lesson.markdown).toContain('N × M = 4 × 6 = 24 integraciones');
      expect(lesson.markdown).toContain('N + M = 4 + 6 = 10 piezas');
    });

    it('asks the horas: 200 question in the quiz of mcp-04, the lesson that teaches the answer', async () => {
      const { client } = await open();
      const lesson = await client.findLesson('mcp-04-errores');
      expect(lesson.quiz).toBe('quiz-mcp-04');
      expect(lesson.markdown).toMatch(/-32602 Invalid params[\s\S]*isError: true/);
      const quiz = await client.getQuiz('quiz-mcp-04');
      expect(quiz.lesson).toBe('mcp-04-errores');
      const question = quiz.questions.find((q) => q.text.includes('horas: 200'))!;
      expect(question.text).toContain('máximo 72');
      const result = await client.submitQuiz('quiz-mcp-04', {
        student: 'bruno-diaz',
        answers: { [question.key]: 'b' },
      });
      const graded = result.results.find((r) => r.question === question.key)!;
      expect(graded).toMatchObject({ is_correct: true, correct_option: 'b' });
      const right = question.options.find((o) => o.key === 'b')!.text;
      expect(right).toMatch(/2025-06-18.*-32602.*2025-11-25.*isError: true/);
      // The N×M lesson keeps its own quiz, on N×M only.
      const nxm = await client.getQuiz('quiz-mcp-01');
      expect(nxm.lesson).toBe('mcp-01-nxm');
      expect(nxm.questions.map((q) => q.text).join(' ')).not.toContain('horas');
    });

    it.runIf(engine.name === 'SQLite')(
      'moves the horas: 200 question out of the N×M quiz of an older install, and hides its answers',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'code-academy-old-'));
        const file = join(dir, 'old.db');
        const old = openDatabase(file, { migrations: MIGRATIONS.slice(0, 2) });
        // As the seed of earlier builds left it: the question was p3 of quiz-mcp-01, and no quiz-mcp-04.
        old.exec(`DELETE FROM intentos WHERE quiz_id = 'quiz-mcp-04';
      DELETE FROM preguntas WHERE quiz_id = 'quiz-mcp-04';
      DELETE FROM quizzes WHERE id = 'quiz-mcp-04';
      INSERT INTO preguntas VALUES ('quiz-mcp-01', 'p3', 3, 'El cliente envía horas: 200', '{}', 'b', 'x');`);
        old.close();
        const { system } = await open(file);
        expect((await system.store.questions('quiz-mcp-01')).map((q) => q.clave)).toEqual(['p1', 'p2']);
        expect(await system.store.getQuiz('quiz-mcp-04')).toMatchObject({ leccion_id: 'mcp-04-errores' });
        expect((await system.store.questions('quiz-mcp-04'))[0]!.enunciado).toContain('horas: 200');
        expect((await system.store.columns('preguntas')).map((c) => c.name)).not.toContain('correcta');
        await engine.closeAll();
        rmSync(dir, { recursive: true, force: true });
      },
    );

    it('survives a reopen: the seed runs once and writes persist', async () => {
      const first = await open();
      await first.client.recordProgress('ana-garcia', 'mcp-01-nxm');
      await engine.closeAll();
      const { client } = await open(first.place);
      expect((await client.searchCourses()).courses).toHaveLength(4);
      const progress = await client.progress('ana-garcia');
      expect(progress.courses[0]!.completed_lessons).toContain('mcp-01-nxm');
    });
  });

  describe('courses and lessons', () => {
    it('searches title, description, tags and lesson titles, case-insensitively', async () => {
      const { client } = await open();
      expect((await client.searchCourses('SGP4')).courses.map((c) => c.id)).toEqual(['orbitas']);
      expect((await client.searchCourses('errores')).courses.map((c) => c.id)).toEqual(['mcp']);
      expect((await client.searchCourses('%')).courses).toEqual([]);
    });

    it('folds case and accents the Unicode way: órbita, órbitas, ORBITA and estacion all match', async () => {
      const { client } = await open();
      const ids = async (text: string) => (await client.searchCourses(text)).courses.map((c) => c.id);
      for (const text of ['órbita', 'órbitas', 'ORBITA', 'Órbitas', 'orbitas']) {
        expect(await ids(text), text).toEqual(['orbitas']);
      }
      const accented = await ids('estación');
      expect(accented).toContain('estaciones-terrenas');
      expect(await ids('estacion')).toEqual(accented);
      expect(await ids('ESTACIÓN')).toEqual(accented);
    });

    it('refuses a lesson under the wrong course, and unknown ones, with 404', async () => {
      const { client } = await open();
      expect((await refusal(client.getLesson('orbitas', 'mcp-01-nxm'))).message).toContain("sino de 'mcp'");
      expect((await refusal(client.findLesson('nada'))).status).toBe(404);
      expect((await refusal(client.getCourse('nada'))).message).toContain('mcp, orbitas');
    });
  });

  describe('progress', () => {
    it('records a lesson once: a repeat changes nothing and says so', async () => {
      const { client } = await open();
      const first = await client.recordProgress('ana-garcia', 'mcp-02-ciclo-de-vida');
      expect(first).toMatchObject({ already_completed: false, completed_at: '2026-06-27T10:30:00.000Z' });
      expect(first.progress).toMatchObject({ completed: 1, total: 4 });
      const again = await client.recordProgress('ana-garcia', 'mcp-02-ciclo-de-vida');
      expect(again).toMatchObject({ already_completed: true, progress: { completed: 1 } });
    });

    // Replicas on SQLite are processes sharing a file; two stores in one process would block each other's
    // synchronous busy wait, so the race runs where replicas are pools: PostgreSQL.
    it.runIf(engine.name === 'PostgreSQL')(
      'two replicas racing to record one lesson: one records it, the other says it was done, same date',
      async () => {
        const a = await open();
        const b = await engine.open({ now: () => NOW + 60_000 }, a.place);
        const results = await Promise.all([
          a.client.recordProgress('ana-garcia', 'mcp-03-herramientas'),
          b.client.recordProgress('ana-garcia', 'mcp-03-herramientas'),
        ]);
        expect(results.map((r) => r.already_completed).sort()).toEqual([false, true]);
        expect(new Set(results.map((r) => r.completed_at)).size).toBe(1);
        expect((await a.client.progress('ana-garcia')).courses[0]!.completed_lessons).toContain(
          'mcp-03-herramientas',
        );
      },
    );

    it.runIf(engine.name === 'PostgreSQL')(
      'a lesson another replica records between the read and the insert keeps that replica’s date',
      async () => {
        const a = await open();
        const db = engine.database(a.place)!;
        // Another writer's insert, not yet committed: the read sees nothing, the insert waits for it.
        await db.query('BEGIN');
        await db.query(
          "INSERT INTO academy.avances VALUES ('ana-garcia', 'mcp-03-herramientas', '2026-01-01T00:00:00.000Z')",
        );
        const recording = a.client.recordProgress('ana-garcia', 'mcp-03-herramientas');
        while (
          (
            await db.query(
              "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            )
          ).length === 0
        ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await db.query('COMMIT');
        expect(await recording).toMatchObject({
          already_completed: true,
          completed_at: '2026-01-01T00:00:00.000Z',
        });
      },
    );

    it('refuses progress in a course the student is not enrolled in (409) and unknown ids (404)', async () => {
      const { client } = await open();
      const notEnrolled = await refusal(client.recordProgress('bruno-diaz', 'orb-01-kepler'));
      expect(notEnrolled.status).toBe(409);
      expect(notEnrolled.message).toContain("no está matriculado en el curso 'orbitas'");
      expect((await refusal(client.recordProgress('nadie', 'mcp-01-nxm'))).status).toBe(404);
      expect((await refusal(client.recordProgress('ana-garcia', 'nada'))).status).toBe(404);
    });
  });

  describe('quizzes', () => {
    it('grades and stores every attempt, counting unanswered questions as wrong', async () => {
      const { client } = await open();
      const result = await client.submitQuiz('quiz-mcp-04', {
        student: 'ana-garcia',
        answers: { p1: 'a' },
      });
      expect(result).toMatchObject({ correct: 0, total: 2, passed: false, student: 'ana-garcia' });
      expect(result.results[1]).not.toHaveProperty('given');
      const second = await client.submitQuiz('quiz-mcp-04', {
        student: 'ana-garcia',
        answers: { p1: 'b', p2: 'b' },
      });
      expect(second).toMatchObject({ correct: 2, passed: true });
      const progress = await client.progress('ana-garcia');
      expect(progress.courses[0]!.attempts.map((a) => a.attempt_id)).toEqual([
        result.attempt_id,
        second.attempt_id,
      ]);
    });

    it('refuses unknown questions and options with 422 naming them', async () => {
      const { client } = await open();
      const question = await refusal(
        client.submitQuiz('quiz-mcp-01', { student: 'ana-garcia', answers: { p9: 'a' } }),
      );
      expect(question.status).toBe(422);
      expect(question.message).toContain('p9');
      const option = await refusal(
        client.submitQuiz('quiz-sql-01', { student: 'bruno-diaz', answers: { p1: 'f' } }),
      );
      expect(option.message).toContain("no tiene la opción 'f'");
    });
  });

  describe('schema', () => {
    it('describes each table: columns, types, nullability, defaults and foreign keys', async () => {
      const { client } = await open();
      const table = await client.getTable('lecciones');
      expect(table.columns.find((c) => c.name === 'minutos')).toEqual({
        name: 'minutos',
        type: 'INTEGER',
        nullable: false,
        default: '15',
        primary_key: false,
      });
      expect(table.foreign_keys).toEqual([{ column: 'curso_id', references: 'cursos.id' }]);
      expect((await client.listTables()).tables.map((t) => t.name)).toEqual([
        'avances',
        'cursos',
        'estudiantes',
        'intentos',
        'lecciones',
        'matriculas',
        'preguntas',
        'quizzes',
      ]);
      expect((await refusal(client.getTable('sqlite_schema'))).status).toBe(404);
    });
  });
});
