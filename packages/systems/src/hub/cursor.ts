/**
 * Cursors are opaque to clients: base64url of `<topic>:<seq>`. Carrying the topic lets the hub refuse a
 * cursor of another topic instead of silently reading from the wrong position.
 */
export function encodeCursor(topic: string, seq: number): string {
  return Buffer.from(`${topic}:${seq}`, 'utf8').toString('base64url');
}

export type DecodedCursor = { ok: true; seq: number } | { ok: false; reason: string };

export function decodeCursor(topic: string, cursor: string): DecodedCursor {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^([a-z0-9.-]+):(0|[1-9]\d{0,14})$/.exec(text);
  if (!match) return { ok: false, reason: 'no es un cursor de este hub' };
  if (match[1] !== topic) return { ok: false, reason: `pertenece al tópico '${match[1]}', no a '${topic}'` };
  return { ok: true, seq: Number(match[2]) };
}
