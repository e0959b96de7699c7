/**
 * The one timestamp format of every system's API: ISO 8601 in UTC with milliseconds
 * (`2026-11-30T03:14:00.000Z`), so two systems' times compare as strings and none loses precision.
 */
export function isoUtc(ms: number): string {
  return new Date(ms).toISOString();
}
