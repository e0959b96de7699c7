import { join } from 'node:path';
import type { RestHandler } from '@code-cluster/shared';
import {
  type EventPage,
  type EventRef,
  type HubEvent,
  MAX_EVENT_DATA_BYTES,
  PublishRequestSchema,
  type PublishResult,
  ReadQuerySchema,
  TOPIC_MAX_LENGTH,
  TopicNameSchema,
  type TopicSummary,
  type TopicWatcher,
} from '@code-cluster/shared/hub';
import { badRequest, HttpProblem, jsonResponse, notFound, unprocessable } from '../http/problem.js';
import { createRouter, parseQuery } from '../http/router.js';
import { dataDir } from '../storage/index.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { type EventRecord, HubStore, type RetentionPolicy, type TopicRecord } from './store.js';
import { LogWatcher } from './watcher.js';

export interface HubSystemOptions {
  /** SQLite file of the log; `hub.db` under the cluster's data dir by default. */
  file?: string;
  retention?: Partial<RetentionPolicy>;
  /** How often to look for events published by other processes while someone watches, ms. */
  watchIntervalMs?: number;
  /** The hub's clock, Unix ms (tests pin it). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

export interface HubSystem {
  handler: RestHandler;
  /** Notices new events in process, and those of other processes sharing the file. */
  watcher: TopicWatcher;
  store: HubStore;
  close(): void;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The event hub's REST API over its SQLite log (see packages/shared/src/hub/schemas.ts). */
export function createHubSystem(options: HubSystemOptions = {}): HubSystem {
  const store = new HubStore(options.file ?? join(dataDir(), 'hub.db'), {
    ...(options.retention ? { retention: options.retention } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const watcher = new LogWatcher(store, {
    ...(options.watchIntervalMs ? { intervalMs: options.watchIntervalMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });

  const topicParam = (name: string): string => {
    const parsed = TopicNameSchema.safeParse(name);
    if (parsed.success) return parsed.data;
    throw badRequest(
      `Nombre de tópico inválido: ${JSON.stringify(name)}. Un tópico tiene de 1 a ${TOPIC_MAX_LENGTH} ` +
        'caracteres: minúsculas y dígitos, con palabras unidas por un punto o un guion (p. ej. misiones.alertas).',
      { topic: name },
    );
  };
  const existingTopic = (name: string): TopicRecord => {
    const topic = store.topic(name);
    if (!topic) {
      const known = store.topics().map((t) => t.name);
      throw notFound(
        `El tópico '${name}' no existe: nadie ha publicado en él todavía. ` +
          (known.length > 0
            ? `Tópicos existentes: ${known.slice(0, 20).join(', ')}.`
            : 'No hay tópicos aún.'),
        { topic: name },
      );
    }
    return topic;
  };

  const handler = createRouter(
    [
      {
        method: 'GET',
        pattern: '/healthz',
        handle: () => ({ status: 'ok', system: 'hub', version: '0.1.0' }),
      },
      {
        method: 'GET',
        pattern: '/v1/topics',
        handle: () => ({ topics: store.topics().map(topicDto) }),
      },
      {
        method: 'GET',
        pattern: '/v1/topics/:topic',
        handle: ({ params }) => topicDto(existingTopic(topicParam(params.topic!))),
      },
      {
        method: 'POST',
        pattern: '/v1/topics/:topic/events',
        handle: ({ params, request }) => {
          const topic = topicParam(params.topic!);
          const body = publishBody(request.body);
          const data = JSON.stringify(body.data);
          const size = Buffer.byteLength(data, 'utf8');
          if (size > MAX_EVENT_DATA_BYTES) {
            throw new HttpProblem(
              413,
              'Content Too Large',
              `Los datos del evento ocupan ${size} bytes en JSON; el límite es ${MAX_EVENT_DATA_BYTES} bytes ` +
                '(64 KiB). Publica un resumen o una referencia al dato en lugar del dato completo.',
              { limit_bytes: MAX_EVENT_DATA_BYTES, size_bytes: size },
            );
          }
          const result = store.append(topic, body.type, data, body.idempotency_key);
          if (result.kind === 'conflict') {
            throw new HttpProblem(
              409,
              'Conflict',
              `La clave de idempotencia '${body.idempotency_key}' ya se usó en '${topic}' para otro evento ` +
                `(secuencia ${result.event.seq}, tipo ${result.event.type}) con contenido distinto. Usa una clave ` +
                'nueva para un evento nuevo; repite la misma clave solo para reintentar exactamente el mismo evento.',
              { topic, idempotency_key: body.idempotency_key, seq: result.event.seq },
            );
          }
          if (result.kind === 'stored') watcher.published(topic, result.event.seq);
          const answer: PublishResult = {
            event: eventRef(result.event),
            duplicate: result.kind === 'duplicate',
          };
          return jsonResponse(result.kind === 'stored' ? 201 : 200, answer);
        },
      },
      {
        method: 'GET',
        pattern: '/v1/topics/:topic/events',
        handle: ({ params, request }) => {
          const topic = topicParam(params.topic!);
          const query = parseQuery(request.query, ReadQuerySchema);
          const record = existingTopic(topic);
          let after = 0;
          let limit = query.limit;
          if (query.last !== undefined) {
            after = Math.max(0, record.lastSeq - query.last);
            limit = query.last;
          } else if (query.after !== undefined) {
            const cursor = decodeCursor(topic, query.after);
            if (!cursor.ok) {
              throw badRequest(
                `El cursor ${JSON.stringify(query.after)} no es válido: ${cursor.reason}. Usa el cursor que ` +
                  `devolvió una lectura de '${topic}', u omítelo para leer desde el evento más antiguo.`,
                { parameter: 'after' },
              );
            }
            after = cursor.seq;
          }
          const rows = store.readAfter(topic, after, limit + 1);
          const events = rows.slice(0, limit).map(eventDto);
          const page: EventPage = {
            topic,
            events,
            next_cursor: encodeCursor(topic, events.at(-1)?.seq ?? after),
            has_more: rows.length > limit,
            gap: record.firstSeq === null ? record.lastSeq > after : record.firstSeq > after + 1,
          };
          return page;
        },
      },
    ],
    options.onError,
  );

  return {
    handler,
    watcher,
    store,
    close: () => {
      watcher.stop();
      store.close();
    },
  };
}

function publishBody(body: string | undefined) {
  let value: unknown;
  try {
    value = body === undefined ? undefined : JSON.parse(body);
  } catch {
    throw badRequest('El cuerpo no es JSON válido.');
  }
  const parsed = PublishRequestSchema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = issue.path.join('.') || 'cuerpo';
  throw unprocessable(`Campo '${field}' inválido: ${issue.message}.`, { field });
}

function eventRef(event: EventRecord): EventRef {
  return {
    id: event.id,
    topic: event.topic,
    seq: event.seq,
    cursor: encodeCursor(event.topic, event.seq),
    type: event.type,
    published_at: iso(event.publishedAt),
    idempotency_key: event.idempotencyKey,
  };
}

function eventDto(event: EventRecord & { data: string }): HubEvent {
  return { ...eventRef(event), data: JSON.parse(event.data) as Record<string, unknown> };
}

function topicDto(topic: TopicRecord): TopicSummary {
  return {
    name: topic.name,
    last_seq: topic.lastSeq,
    last_cursor: encodeCursor(topic.name, topic.lastSeq),
    event_count: topic.eventCount,
    first_seq: topic.firstSeq,
    last_published_at: topic.lastPublishedAt === null ? null : iso(topic.lastPublishedAt),
  };
}
