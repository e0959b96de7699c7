import { existsSync } from 'node:fs';
import { SystemError } from '@code-cluster/shared';
import { AcademyClient } from '@code-cluster/shared/academy';
import { STUDENTS } from '../academy/content.js';
import { openDatabase } from '../storage/index.js';

/**
 * Who may start a lab: the academy's roster owns student ids (`ana-garcia`). The lab asks it and says
 * plainly when it could not (the academy is down, or its database cannot be read): a lab session is then
 * opened anyway, marked as not verified, since a student must not lose a lab to an outage elsewhere.
 */
export type RosterAnswer =
  | { kind: 'conocido'; source: string }
  | { kind: 'desconocido' }
  | { kind: 'sin_verificar'; reason: string };

export interface StudentRoster {
  check(student: string, signal?: AbortSignal): Promise<RosterAnswer>;
  close?(): Promise<void>;
}

/**
 * The academy of the same data dir, read directly (no socket): its database (`academy.db`, the file the
 * academy system creates beside the lab's) when it exists, else the reference roster it would be seeded
 * with on first use.
 */
export function embeddedRoster(academyFile: string): StudentRoster {
  return {
    async check(student) {
      if (!existsSync(academyFile)) {
        return STUDENTS.some((s) => s.id === student)
          ? { kind: 'conocido', source: 'la lista de referencia de la academia' }
          : { kind: 'desconocido' };
      }
      try {
        const db = openDatabase(academyFile, { readonly: true });
        try {
          const found = db.prepare('SELECT 1 AS found FROM estudiantes WHERE id = ?').get(student);
          return found
            ? { kind: 'conocido', source: 'la base de datos de la academia' }
            : { kind: 'desconocido' };
        } finally {
          db.close();
        }
      } catch (error) {
        return {
          kind: 'sin_verificar',
          reason: `no se pudo leer la base de datos de la academia (${error instanceof Error ? error.message : String(error)})`,
        };
      }
    },
  };
}

/** A remote academy system, asked for the student's progress sheet: 404 means no such student. */
export function remoteRoster(options: { baseUrl: string; token?: string | undefined }): StudentRoster {
  // undici loads with the first check, not with the lab system: most labs never use a remote academy.
  let academy: Promise<AcademyClient> | undefined;
  const client = () => {
    academy ??= import('@code-cluster/shared/http').then(
      ({ httpTransport }) =>
        new AcademyClient(
          httpTransport({ baseUrl: options.baseUrl, ...(options.token ? { token: options.token } : {}) }),
        ),
    );
    return academy;
  };
  return {
    async check(student, signal) {
      try {
        await (await client()).progress(student, signal);
        return { kind: 'conocido', source: 'el sistema de la academia' };
      } catch (error) {
        if (error instanceof SystemError && error.status === 404) return { kind: 'desconocido' };
        return { kind: 'sin_verificar', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    close: async () => {
      await (await academy)?.close();
    },
  };
}
