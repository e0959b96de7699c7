import { allowedBeforeInitialized, type JsonRpcId } from '@code-cluster/shared/protocol';
import type { SchemaVerdict } from './json-schema.js';
import type { Entry } from './transcript.js';

/** Where the session stood when a client request was sent (DESIGN.md §3 rule 1). */
export type Phase = 'awaiting-initialize' | 'initializing' | 'ready';

/** A client request and every server response paired to it by id. */
export interface Exchange {
  request: Entry;
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown>;
  phase: Phase;
  /** Another request with the same id was still unanswered when this one was sent. */
  duplicateInFlight: boolean;
  /** An earlier request of the session, already answered, used the same id (MCP forbids reuse). */
  reusedAfter: Exchange | undefined;
  responses: Entry[];
}

/** A client line that is not a valid request yet has an id to answer: it must get this error back. */
export interface Expectation {
  entry: Entry;
  code: number;
  id: JsonRpcId | null;
  answers: Entry[];
}

/** A server response that answers nothing the client sent, and the last client message before it. */
export interface Stray {
  response: Entry;
  after: Entry | undefined;
}

export interface ServerAnswer {
  id: JsonRpcId | null;
  result?: Record<string, unknown>;
  error?: { code: unknown; message?: unknown };
}

/** One pass over a transcript that pairs what was asked with what was answered; the rules read it. */
export interface Analysis {
  entries: Entry[];
  exchanges: Exchange[];
  expectations: Expectation[];
  strays: Stray[];
  /** Server lines that are not JSON-RPC messages at all. */
  serverNoise: Entry[];
  /** Ids the client cancelled with notifications/cancelled: their requests need no answer. */
  cancelled: Set<JsonRpcId>;
  initialize: Exchange | undefined;
  /** The version the server answered to initialize, if it did. */
  version: string | undefined;
  /** inputSchema of every tool a tools/list result showed; undefined when the transcript lists none. */
  tools: Map<string, unknown> | undefined;
  /** Each judgeable tools/call checked against its listed inputSchema (filled by `judgeArguments`). */
  argumentVerdicts: Map<Exchange, SchemaVerdict>;
}

export function answerOf(entry: Entry): ServerAnswer | undefined {
  const value = entry.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const message = value as Record<string, unknown>;
  if ('method' in message || !('result' in message || 'error' in message)) return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  const answer: ServerAnswer = { id };
  if (typeof message.result === 'object' && message.result !== null) {
    answer.result = message.result as Record<string, unknown>;
  }
  if (typeof message.error === 'object' && message.error !== null) {
    answer.error = message.error as ServerAnswer['error'];
  }
  return answer;
}

const PARSE_ERROR_CODES = new Set([-32700, -32600]);

export function analyse(entries: Entry[]): Analysis {
  const analysis: Analysis = {
    entries,
    exchanges: [],
    expectations: [],
    strays: [],
    serverNoise: [],
    cancelled: new Set(),
    initialize: undefined,
    version: undefined,
    tools: undefined,
    argumentVerdicts: new Map(),
  };
  let phase: Phase = 'awaiting-initialize';
  let lastClient: Entry | undefined;

  for (const entry of entries) {
    const { incoming } = entry;
    if (entry.from === 'client') {
      if (incoming.kind === 'request') {
        const earlier = analysis.exchanges.filter((e) => e.id === incoming.id);
        const inFlight = earlier.some((e) => e.responses.length === 0);
        const params = (incoming.message.params ?? {}) as Record<string, unknown>;
        const exchange: Exchange = {
          request: entry,
          id: incoming.id,
          method: incoming.method,
          params,
          phase,
          duplicateInFlight: inFlight,
          reusedAfter: inFlight ? undefined : earlier.at(-1),
          responses: [],
        };
        analysis.exchanges.push(exchange);
        if (incoming.method === 'initialize' && phase === 'awaiting-initialize') {
          analysis.initialize = exchange;
          phase = 'initializing';
        }
      } else if (incoming.kind === 'notification') {
        if (incoming.method === 'notifications/initialized' && phase === 'initializing') phase = 'ready';
        if (incoming.method === 'notifications/cancelled') {
          const requestId = (incoming.message.params as { requestId?: unknown } | undefined)?.requestId;
          if (typeof requestId === 'string' || typeof requestId === 'number')
            analysis.cancelled.add(requestId);
        }
      } else if (incoming.kind === 'invalid' && incoming.reply) {
        analysis.expectations.push({
          entry,
          code: incoming.reply.error.code,
          id: incoming.reply.id,
          answers: [],
        });
      }
      if (incoming.kind !== 'response') lastClient = entry;
      continue;
    }

    // From the server.
    const answer = answerOf(entry);
    if (!answer) {
      if (incoming.kind === 'invalid') analysis.serverNoise.push(entry);
      continue;
    }
    const paired = pair(analysis, entry, answer);
    if (!paired) {
      analysis.strays.push({ response: entry, after: lastClient });
      continue;
    }
    if (paired === analysis.initialize && paired.responses.length === 1) {
      if (answer.error) {
        // A refused initialize leaves the session where it was.
        phase = 'awaiting-initialize';
        analysis.initialize = undefined;
      } else {
        const version = answer.result?.protocolVersion;
        analysis.version = typeof version === 'string' ? version : undefined;
      }
    }
    if (paired !== undefined && 'method' in paired && paired.method === 'tools/list' && answer.result) {
      collectTools(analysis, answer.result);
    }
  }
  return analysis;
}

/** Finds what a server response answers: a client request, else a client line that had to be refused. */
function pair(analysis: Analysis, entry: Entry, answer: ServerAnswer): Exchange | Expectation | undefined {
  if (answer.id !== null) {
    const same = analysis.exchanges.filter((e) => e.id === answer.id);
    const open = same.find((e) => e.responses.length === 0);
    // Answered already: a second answer is kept on the latest request with that id, to be reported.
    const target = open ?? same.at(-1);
    if (target) {
      target.responses.push(entry);
      return target;
    }
    const expected = analysis.expectations.find((x) => x.id === answer.id && x.answers.length === 0);
    if (expected) {
      expected.answers.push(entry);
      return expected;
    }
  }
  const code = answer.error?.code;
  const unanswered = analysis.expectations.filter(
    (x) =>
      x.id === null &&
      x.answers.length === 0 &&
      (answer.id === null || PARSE_ERROR_CODES.has(code as number)),
  );
  // Answers to unreadable lines carry no id: pair by the error code first, so a missing -32700 is blamed
  // on its own line rather than on the -32600 that answers the next one.
  const unread = unanswered.find((x) => x.code === code) ?? unanswered[0];
  if (unread) {
    unread.answers.push(entry);
    return unread;
  }
  return undefined;
}

function collectTools(analysis: Analysis, result: Record<string, unknown>): void {
  if (!Array.isArray(result.tools)) return;
  analysis.tools ??= new Map();
  for (const tool of result.tools as Array<Record<string, unknown>>) {
    if (typeof tool?.name === 'string') analysis.tools.set(tool.name, tool.inputSchema);
  }
}

/** Whether a client request was sent at a point of the lifecycle where the server must refuse it. */
export function refusedByLifecycle(exchange: Exchange): boolean {
  return exchange.phase !== 'ready' && !allowedBeforeInitialized(exchange.method);
}
