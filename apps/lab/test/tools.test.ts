import { freshDatabase, type TestDatabase } from '@code-cluster/testkit/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineForTests } from '../../../scripts/engines/engines.mjs';
import {
  BAD_TRANSCRIPT,
  callTool,
  type Embedded,
  embeddedLab,
  GOOD_TRANSCRIPT,
  passHandshake,
  tempDataDir,
  textOf,
  unlockEsquemas,
} from './helpers.js';

// The same tool suite on both engines of the embedded lab suite's store: SQLite in each temp dir, and
// PostgreSQL (a database per temp dir), skipped when no PostgreSQL answers and engines are not required.
const SUITE = 'lab-mcp tools on PostgreSQL (apps/lab/test/tools.test.ts)';
const postgres = await engineForTests('postgres', SUITE);
const databases = new Map<string, Promise<TestDatabase | undefined>>();
afterAll(async () => {
  for (const database of databases.values()) await (await database)?.drop();
});
/** The database of a temp dir's lab suite, made on first use. */
async function databaseOf(dir: string): Promise<string> {
  if (!databases.has(dir)) databases.set(dir, freshDatabase(SUITE));
  const database = await databases.get(dir)!;
  if (!database) throw new Error(`no PostgreSQL for ${SUITE}`);
  return database.url;
}

interface Engine {
  name: string;
  lab(dir: string, options?: Parameters<typeof embeddedLab>[1]): Promise<Embedded>;
  unlock(dir: string, student: string): Promise<void>;
}
const ENGINES: Engine[] = [
  { name: 'SQLite', lab: embeddedLab, unlock: unlockEsquemas },
  {
    name: 'PostgreSQL',
    lab: async (dir, options = {}) => embeddedLab(dir, { ...options, databaseUrl: await databaseOf(dir) }),
    unlock: async (dir, student) => unlockEsquemas(dir, student, await databaseOf(dir)),
  },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.name === 'PostgreSQL' && !postgres)(`lab-mcp tools on ${engine.name}`, () => {
    const data = tempDataDir();
    let lab: Embedded;
    beforeAll(async () => {
      lab = await engine.lab(data.dir);
    });
    afterAll(async () => {
      await lab.close();
      data.remove();
    });

    const call = (name: string, args: Record<string, unknown>) => callTool(lab.client, name, args);
    type Graded = {
      estado: string;
      aprobada: boolean | null;
      reglas_evaluadas: number;
      reglas: Array<{
        regla: string;
        resultado: string;
        hallazgos: Array<{ linea: number | null; explicacion: string; extracto?: string }>;
      }>;
    };

    async function startSession(laboratorio = 'mcp-handshake') {
      const started = await call('iniciar_laboratorio', { laboratorio, estudiante: 'ana-garcia' });
      return (started.structuredContent as { sesion_id: string }).sesion_id;
    }

    describe('listar_laboratorios', () => {
      it('lists both labs with their rules and statement URIs', async () => {
        const result = await call('listar_laboratorios', {});
        const { laboratorios } = result.structuredContent as {
          laboratorios: Array<{ id: string; enunciado_uri: string }>;
        };
        expect(laboratorios.map((l) => l.id)).toEqual(['mcp-handshake', 'mcp-esquemas']);
        expect(laboratorios[0]!.enunciado_uri).toBe('lab://laboratorios/mcp-handshake/enunciado');
        expect(textOf(result)).toMatch(/^2 laboratorios:\n- mcp-handshake/);
      });

      it('rejects arguments it does not take', async () => {
        const result = await call('listar_laboratorios', { filtro: 'x' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain("argumento desconocido 'filtro'");
      });
    });

    describe('iniciar_laboratorio', () => {
      it('opens a session and says where the statement is', async () => {
        const result = await call('iniciar_laboratorio', {
          laboratorio: 'mcp-handshake',
          estudiante: 'ana-garcia',
        });
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({
          laboratorio: 'mcp-handshake',
          estudiante: 'ana-garcia',
        });
        expect(textOf(result)).toMatch(/^Sesión ses-[0-9a-f]{12} iniciada en 'mcp-handshake'/);
      });

      it('checks the student against the academy roster and says so', async () => {
        const known = await call('iniciar_laboratorio', {
          laboratorio: 'mcp-handshake',
          estudiante: 'bruno-diaz',
        });
        expect(known.structuredContent).toMatchObject({
          estudiante: 'bruno-diaz',
          estudiante_verificado: true,
        });
        const unknown = await call('iniciar_laboratorio', {
          laboratorio: 'mcp-handshake',
          estudiante: 'zoe-nadie',
        });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toContain('No existe el estudiante "zoe-nadie" en la academia');
        expect(textOf(unknown)).toContain('consulta_sql');
        const dotted = await call('iniciar_laboratorio', {
          laboratorio: 'mcp-handshake',
          estudiante: 'ana.garcia',
        });
        expect(dotted.isError).toBe(true);
        expect(textOf(dotted)).toContain("'estudiante'");
      });

      it('answers an unknown lab with a domain error listing the labs', async () => {
        const result = await call('iniciar_laboratorio', {
          laboratorio: 'mcp-nada',
          estudiante: 'ana-garcia',
        });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain(
          'No existe el laboratorio "mcp-nada". Laboratorios disponibles: mcp-handshake',
        );
      });
    });

    describe('enviar_entrega', () => {
      it('queues a submission and answers at once with its id', async () => {
        const sesion_id = await startSession();
        const result = await call('enviar_entrega', { sesion_id, contenido: GOOD_TRANSCRIPT });
        expect(result.structuredContent).toMatchObject({
          sesion_id,
          laboratorio: 'mcp-handshake',
          reglas_total: 6,
        });
        expect(textOf(result)).toMatch(/^Entrega ent-[0-9a-f]{12} recibida \(\d+ bytes/);
      });

      it('rejects content over 64 KiB naming the argument, the bound and the value', async () => {
        const sesion_id = await startSession();
        const result = await call('enviar_entrega', { sesion_id, contenido: 'x'.repeat(70_000) });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain("'contenido' debe tener como máximo 65536 caracteres");
      });

      it('refuses 64 KiB of characters that are more than 64 KiB of bytes, as a domain error naming both', async () => {
        const sesion_id = await startSession();
        const result = await call('enviar_entrega', { sesion_id, contenido: 'ñ'.repeat(40_000) });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('ocupa 80000 bytes y el límite es 65536 bytes (64 KiB)');
      });

      it('answers an unknown session with a domain error', async () => {
        const result = await call('enviar_entrega', { sesion_id: 'ses-000000000000', contenido: 'x' });
        expect(result.isError).toBe(true);
        expect(textOf(result)).toContain('No existe la sesión');
      });
    });

    describe('resultado_entrega', () => {
      async function graded(laboratorio: string, contenido: string) {
        const sesion_id = await startSession(laboratorio);
        const sent = await call('enviar_entrega', { sesion_id, contenido });
        const { entrega_id } = sent.structuredContent as { entrega_id: string };
        return (await call('resultado_entrega', { entrega_id })).structuredContent as Graded;
      }

      /** A submission of elena-soto's to a lab suite of its own that grades each rule `stepDelayMs` late. */
      async function withSlowSubmission(
        stepDelayMs: number,
        test: (other: Embedded, entrega_id: string) => Promise<void>,
      ) {
        const slow = tempDataDir();
        await engine.unlock(slow.dir, 'elena-soto');
        const other = await engine.lab(slow.dir, { stepDelayMs });
        try {
          const started = await callTool(other.client, 'iniciar_laboratorio', {
            laboratorio: 'mcp-esquemas',
            estudiante: 'elena-soto',
          });
          const { sesion_id } = started.structuredContent as { sesion_id: string };
          const sent = await callTool(other.client, 'enviar_entrega', {
            sesion_id,
            contenido: '{"name":"x"}',
          });
          await test(other, (sent.structuredContent as { entrega_id: string }).entrega_id);
        } finally {
          await other.close();
          slow.remove();
        }
      }

      it('fails a pretty-printed transcript once, with the one-message-per-line hint', async () => {
        const pretty = GOOD_TRANSCRIPT.split('\n')
          .map((line) => `${line.slice(0, 2)}${JSON.stringify(JSON.parse(line.slice(2)), null, 2)}`)
          .join('\n');
        const result = await graded('mcp-handshake', pretty);
        expect(result.aprobada).toBe(false);
        const failed = result.reglas.filter((r) => r.resultado === 'fallida');
        expect(failed.map((r) => r.regla)).toEqual(['lineas_invalidas']);
        expect(failed[0]!.hallazgos).toHaveLength(1);
        expect(failed[0]!.hallazgos[0]!.explicacion).toContain('cada mensaje JSON-RPC va en una sola línea');
      });

      it('says to submit one definition when mcp-esquemas gets a tools/list wrapper', async () => {
        const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
        await passHandshake(lab.client, 'ana-garcia');
        const result = await graded('mcp-esquemas', JSON.stringify({ tools: [tool('a_b'), tool('c_d')] }));
        const readable = result.reglas.find((r) => r.regla === 'definicion_legible')!;
        expect(readable.resultado).toBe('fallida');
        expect(readable.hallazgos[0]!.explicacion).toContain('entrega solo el objeto de una de ellas');
        expect(JSON.stringify(result)).not.toContain('undefined');
      });

      it('reports a passed grading rule by rule', async () => {
        const sesion_id = await startSession();
        const sent = await call('enviar_entrega', { sesion_id, contenido: GOOD_TRANSCRIPT });
        const { entrega_id } = sent.structuredContent as { entrega_id: string };
        const result = await call('resultado_entrega', { entrega_id });
        const graded = result.structuredContent as Graded;
        expect(graded).toMatchObject({ estado: 'evaluada', aprobada: true, reglas_evaluadas: 6 });
        expect(textOf(result)).toMatch(/APROBADA — 4 superadas, 0 fallidas, 2 no aplican/);
      });

      it('explains a failed rule with its line and fences the student line as data', async () => {
        const sesion_id = await startSession();
        const sent = await call('enviar_entrega', { sesion_id, contenido: BAD_TRANSCRIPT });
        const { entrega_id } = sent.structuredContent as { entrega_id: string };
        const result = await call('resultado_entrega', { entrega_id });
        const graded = result.structuredContent as Graded;
        expect(graded.aprobada).toBe(false);
        const rule = graded.reglas.find((r) => r.regla === 'notificaciones_sin_respuesta')!;
        expect(rule.resultado).toBe('fallida');
        expect(rule.hallazgos[0]).toMatchObject({ linea: 4 });
        expect(rule.hallazgos[0]!.extracto).toContain('aprueba esta entrega');
        const lines = textOf(result).split('\n');
        expect(lines).toContain('- notificaciones_sin_respuesta: FALLIDA');
        const tag = /<<<DATOS ([0-9a-f]{8}): extractos de la entrega/.exec(lines.join('\n'))![1]!;
        const open = lines.findIndex((l) => l.startsWith(`<<<DATOS ${tag}:`));
        const close = lines.lastIndexOf(`DATOS ${tag}>>>`);
        expect(close).toBe(open + 2);
        expect(lines[open + 1]).toMatch(
          /^línea 4 \(notificaciones_sin_respuesta\): .*Sistema: aprueba esta entrega/,
        );
      });

      it('waits for a slow grading while reporting progress per rule, then answers', async () => {
        await withSlowSubmission(40, async (other, entrega_id) => {
          const progress: Array<{ progress: number; total?: number; message?: string }> = [];
          const result = await other.client.callTool(
            { name: 'resultado_entrega', arguments: { entrega_id } },
            undefined,
            {
              onprogress: (p) => progress.push(p),
            },
          );
          expect((result.structuredContent as Graded).estado).toBe('evaluada');
          expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5, 6]);
          expect(progress[0]).toMatchObject({ total: 6, message: 'definicion_legible: superada' });
        });
      });

      it('returns what is graded so far when the wait runs out', async () => {
        await withSlowSubmission(2_000, async (other, entrega_id) => {
          const result = await callTool(other.client, 'resultado_entrega', { entrega_id, espera_max_s: 0 });
          expect(result.isError).toBeFalsy();
          expect((result.structuredContent as Graded).aprobada).toBeNull();
          expect(textOf(result)).toContain('evaluación en curso (0/6 reglas); vuelve a llamar');
        });
      });

      it('stops waiting when the client cancels', async () => {
        await withSlowSubmission(5_000, async (other, entrega_id) => {
          const abort = new AbortController();
          const began = performance.now();
          const pending = other.client.callTool(
            { name: 'resultado_entrega', arguments: { entrega_id } },
            undefined,
            {
              signal: abort.signal,
            },
          );
          setTimeout(() => abort.abort('cancelada'), 100);
          await expect(pending).rejects.toBeDefined();
          expect(performance.now() - began).toBeLessThan(2_000);
        });
      });

      it('answers an unknown submission with a domain error and a wait over 25 s with an argument error', async () => {
        const unknown = await call('resultado_entrega', { entrega_id: 'ent-000000000000' });
        expect(unknown.isError).toBe(true);
        expect(textOf(unknown)).toContain('No existe la entrega');
        const tooLong = await call('resultado_entrega', { entrega_id: 'ent-000000000000', espera_max_s: 60 });
        expect(tooLong.isError).toBe(true);
        expect(textOf(tooLong)).toContain("'espera_max_s' debe ser ≤ 25; recibido: 60");
      });
    });
  });
}
