import { classifyLine, type Incoming, type JsonRpcId, parseLine } from '@code-cluster/shared/protocol';

export type Side = 'client' | 'server';

/** One message of a transcript, where it sits in the submission and who sent it. */
export interface Entry {
  /** 1-based line in the submission. */
  line: number;
  from: Side;
  /** true when the student marked the direction (`→`, `←`…); false when it was inferred. */
  marked: boolean;
  /** The message text without its direction mark. */
  text: string;
  /** The parsed JSON, or undefined when the line is not JSON. */
  value: unknown;
  /** How the shared protocol rules classify the line (what a server receiving it must do). */
  incoming: Incoming;
  /** Last line of a message spread over several lines (pretty-printed JSON); absent for one-line ones. */
  lastLine?: number;
}

/** Longest pretty-printed message taken as one: past it, the lines are read one by one. */
const MAX_MESSAGE_LINES = 400;

const TO_SERVER = ['→', '->', '>'];
const TO_CLIENT = ['←', '<-', '<'];

/** Requests only a server sends (a client answers them). `ping` goes both ways; unmarked, it is the client's. */
const SERVER_REQUESTS = new Set(['sampling/createMessage', 'roots/list', 'elicitation/create']);
/** Notifications only a server sends; unmarked `notifications/progress` is taken as the server's too. */
const SERVER_NOTIFICATIONS = new Set([
  'notifications/message',
  'notifications/progress',
  'notifications/resources/updated',
  'notifications/resources/list_changed',
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
]);

function directionMark(line: string): { side: Side | undefined; text: string } {
  const trimmed = line.trim();
  // Two-character marks first: `->` must not be read as `-` followed by `>`.
  for (const mark of [...TO_SERVER, ...TO_CLIENT].sort((a, b) => b.length - a.length)) {
    if (trimmed.startsWith(mark)) {
      return {
        side: TO_SERVER.includes(mark) ? 'client' : 'server',
        text: trimmed.slice(mark.length).trim(),
      };
    }
  }
  return { side: undefined, text: trimmed };
}

/**
 * Reads a transcript: one JSON-RPC message per line, optionally marked with its direction (`→`/`->`/`>`
 * from the client, `←`/`<-`/`<` from the server). Blank lines and lines starting with `#` are skipped.
 * Unmarked lines get the direction MCP gives them: requests and notifications come from the client except
 * those only a server sends; responses come from the server, unless they answer a pending server request;
 * a line that is not JSON-RPC is taken as the client's (a server may only ever write JSON-RPC).
 */
export function readTranscript(content: string): Entry[] {
  const entries: Entry[] = [];
  const serverRequests = new Set<JsonRpcId>();
  const clientRequests = new Set<JsonRpcId>();
  const lines = content.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const { side, text: first } = directionMark(lines[index]!);
    if (first === '' || first.startsWith('#')) continue;
    const spread = spreadMessage(lines, index, first);
    const text = spread?.text ?? first;
    const parsed = parseLine(text);
    const incoming = classifyLine(text);
    const from =
      side ?? inferSide(incoming, parsed.ok ? parsed.value : undefined, serverRequests, clientRequests);
    if (incoming.kind === 'request') (from === 'server' ? serverRequests : clientRequests).add(incoming.id);
    if (incoming.kind === 'response')
      (from === 'server' ? clientRequests : serverRequests).delete(incoming.id);
    entries.push({
      line: index + 1,
      from,
      marked: side !== undefined,
      text,
      value: parsed.ok ? parsed.value : undefined,
      incoming,
      ...(spread ? { lastLine: spread.last + 1 } : {}),
    });
    if (spread) index = spread.last;
  }
  return entries;
}

/**
 * A message pretty-printed over several lines, starting at `start`: it is read as the one message it is
 * (and reported once, by lineas_invalidas) instead of as a dozen lines that are not JSON.
 */
function spreadMessage(
  lines: string[],
  start: number,
  first: string,
): { text: string; last: number } | undefined {
  if (!(first.startsWith('{') || first.startsWith('[')) || parseLine(first).ok) return undefined;
  let text = first;
  for (let next = start + 1; next < lines.length && next - start < MAX_MESSAGE_LINES; next++) {
    const line = lines[next]!.trim();
    // A marked line starts the next message: this one never closed.
    if (directionMark(line).side !== undefined) return undefined;
    text += `\n${line}`;
    // Only a line that could close the value is worth a parse.
    if ((line.endsWith('}') || line.endsWith(']')) && parseLine(text).ok) return { text, last: next };
  }
  return undefined;
}

function inferSide(
  incoming: Incoming,
  value: unknown,
  serverRequests: Set<JsonRpcId>,
  clientRequests: Set<JsonRpcId>,
): Side {
  switch (incoming.kind) {
    case 'request':
      return SERVER_REQUESTS.has(incoming.method) ? 'server' : 'client';
    case 'notification':
      return SERVER_NOTIFICATIONS.has(incoming.method) ? 'server' : 'client';
    case 'response':
      return serverRequests.has(incoming.id) && !clientRequests.has(incoming.id) ? 'client' : 'server';
    case 'invalid':
      // An error answered with `id: null` (to a line the server could not read) is not a valid message to
      // receive, yet it is exactly what a server must send: it is the server's.
      return looksLikeResponse(value) ? 'server' : 'client';
  }
}

function looksLikeResponse(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !('method' in value) &&
    ('result' in value || 'error' in value)
  );
}
