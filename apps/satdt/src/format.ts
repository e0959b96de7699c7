import { z } from 'zod';

/** Spanish text formatting shared by satdt's tools (the readable block next to structuredContent). */

/** `2026-06-27T03:14:05.120Z` → `03:14Z`. */
export function hhmmZ(iso: string): string {
  return `${iso.slice(11, 16)}Z`;
}

/** `2026-06-27T03:14:05.120Z` → `27/06 03:14Z`, for lists that span several days. */
export function dayHhmmZ(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)} ${hhmmZ(iso)}`;
}

/** `end` as `hhmmZ`, or with its date when it falls on another UTC day than `start`. */
export function endHhmmZ(start: string, end: string): string {
  return start.slice(0, 10) === end.slice(0, 10) ? hhmmZ(end) : dayHhmmZ(end);
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Output field of every tool that propagates: present only when the warning applies. */
export const avisoElementos = z
  .string()
  .optional()
  .describe(
    'Aviso cuando el instante queda lejos (antes o después) de la época de los elementos orbitales para el ' +
      'régimen del satélite: dice cuánto y qué error cabe esperar',
  );

/** The twin's stale-elements warning (it words it for the satellite's regime) as a structured field. */
export function warningField(warning: string | undefined): { aviso_elementos?: string } {
  return warning === undefined ? {} : { aviso_elementos: warning };
}

export function lines(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined).join('\n');
}
