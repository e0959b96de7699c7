/** `postgres://user:secret@host/db` → `postgres://user@host/db`: a URL written to a log keeps its secret. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(unreadable URL)';
  }
}
