import { z } from 'zod';

/** REST resources of the event hub. Both the system and its client use these. */

const isoTime = z.iso.datetime({ offset: false });

export const TOPIC_MAX_LENGTH = 64;
/** Largest `data` of one event, as UTF-8 JSON. */
export const MAX_EVENT_DATA_BYTES = 64 * 1024;

/**
 * A topic is one token: lowercase letters and digits in words joined by single dots or dashes
 * (`misiones.alertas`, `estacion-mx`). No spaces, slashes, wildcards or empty segments, so it fits one URI
 * path segment (`hub://topicos/{topico}`) and one exact NATS subject (`hub.t.<topic>`) when the log moves
 * to JetStream.
 */
export const TOPIC_PATTERN = /^[a-z0-9]+(?:[.-][a-z0-9]+)*$/;

export const TopicNameSchema = z
  .string()
  .min(1)
  .max(TOPIC_MAX_LENGTH)
  .regex(TOPIC_PATTERN, 'solo minúsculas y dígitos, con palabras unidas por un punto o un guion');

export function isTopicName(value: string): boolean {
  return TopicNameSchema.safeParse(value).success;
}

/** An event type such as `contacto.agendado`: the same alphabet as topics, up to 100 characters. */
export const EventTypeSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'minúsculas, dígitos, puntos, guiones y guiones bajos');

/** Chosen by the publisher so a retry is recognised; printable ASCII without spaces. */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:@/+=-]+$/, 'ASCII imprimible sin espacios');

export const EventDataSchema = z.record(z.string(), z.unknown());

/** Opaque position in one topic's log: read with `after=<cursor>` to get what came later. */
export const CursorSchema = z.string().min(1).max(200);

export const PublishRequestSchema = z.strictObject({
  type: EventTypeSchema,
  data: EventDataSchema,
  idempotency_key: IdempotencyKeySchema.optional(),
});
export type PublishRequest = z.infer<typeof PublishRequestSchema>;

export const EventSchema = z.object({
  id: z.string(),
  topic: TopicNameSchema,
  /** Position in the topic: 1, 2, 3… never reused, also after retention removed older events. */
  seq: z.int().min(1),
  cursor: CursorSchema,
  type: EventTypeSchema,
  data: EventDataSchema,
  published_at: isoTime,
  idempotency_key: IdempotencyKeySchema.nullable(),
});
export type HubEvent = z.infer<typeof EventSchema>;

/** The event a publish stored, without its data (the publisher has it). */
export const EventRefSchema = EventSchema.omit({ data: true });
export type EventRef = z.infer<typeof EventRefSchema>;

export const PublishResultSchema = z.object({
  event: EventRefSchema,
  /** true: a retry with an idempotency key already used; `event` is the one stored the first time. */
  duplicate: z.boolean(),
});
export type PublishResult = z.infer<typeof PublishResultSchema>;

export const EventPageSchema = z.object({
  topic: TopicNameSchema,
  events: z.array(EventSchema),
  /** Where to continue: after the last event returned, or where the read started when none was. */
  next_cursor: CursorSchema,
  has_more: z.boolean(),
  /** true: retention already removed events that came after the cursor given. */
  gap: z.boolean(),
});
export type EventPage = z.infer<typeof EventPageSchema>;

export const TopicSummarySchema = z.object({
  name: TopicNameSchema,
  /** Sequence of the newest event ever published (0 only for a topic without events). */
  last_seq: z.int().min(0),
  /** Cursor just after the newest event: reading from it returns only what comes next. */
  last_cursor: CursorSchema,
  /** Events still retained. */
  event_count: z.int().min(0),
  first_seq: z.int().min(0).nullable(),
  last_published_at: isoTime.nullable(),
});
export type TopicSummary = z.infer<typeof TopicSummarySchema>;

export const TopicListSchema = z.object({ topics: z.array(TopicSummarySchema) });

export const HubHealthSchema = z.object({ status: z.literal('ok'), system: z.string(), version: z.string() });

/** `after` reads on from a cursor; `last` reads the newest `last` events instead (both oldest first). */
export const ReadQuerySchema = z
  .object({
    after: CursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    last: z.coerce.number().int().min(1).max(500).optional(),
  })
  .refine((query) => query.after === undefined || query.last === undefined, {
    message: "'after' y 'last' se excluyen",
    path: ['last'],
  });
