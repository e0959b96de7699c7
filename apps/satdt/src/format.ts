/** Spanish text formatting shared by satdt's tools (the readable block next to structuredContent). */

/** `2026-06-27T03:14:05.120Z` → `03:14Z`. */
export function hhmmZ(iso: string): string {
  return `${iso.slice(11, 16)}Z`;
}

/** `2026-06-27T03:14:05.120Z` → `27/06 03:14Z`, for lists that span several days. */
export function dayHhmmZ(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)} ${hhmmZ(iso)}`;
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Element sets older than this drift noticeably for low orbits; the text warns the model. */
export const STALE_ELEMENTS_DAYS = 14;

export function staleElementsWarning(ageDays: number): string | undefined {
  if (ageDays <= STALE_ELEMENTS_DAYS) return undefined;
  return (
    `Aviso: los elementos orbitales tienen ${Math.round(ageDays)} días; en órbitas bajas la posición puede ` +
    'desviarse cientos de km. Usa los resultados como orientación, no para apuntar una antena.'
  );
}

export function lines(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined).join('\n');
}
