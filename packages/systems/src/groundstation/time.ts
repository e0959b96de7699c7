/** ISO-8601 UTC, without milliseconds when they are zero (easier to read and to copy into a call). */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
