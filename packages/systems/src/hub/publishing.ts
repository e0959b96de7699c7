import { MAX_EVENT_DATA_BYTES, type PublishRequest, type PublishResult } from '@code-cluster/shared/hub';
import { refuse } from '../refusal.js';
import type { HubLog, LogNotices } from './log.js';
import { eventRefView } from './reading.js';

/** What a publish did: stored a new event, or recognised a retry of one stored before. */
export interface Published {
  created: boolean;
  result: PublishResult;
}

/** Appending events: the size cap, idempotent retries, and waking the topic's watchers. */
export class Publishing {
  constructor(
    private readonly store: HubLog,
    private readonly watcher: LogNotices,
  ) {}

  async publish(topic: string, event: PublishRequest): Promise<Published> {
    const data = JSON.stringify(event.data);
    const size = Buffer.byteLength(data, 'utf8');
    if (size > MAX_EVENT_DATA_BYTES) {
      throw refuse.tooLarge(
        `Los datos del evento ocupan ${size} bytes en JSON; el límite es ${MAX_EVENT_DATA_BYTES} bytes ` +
          '(64 KiB). Publica un resumen o una referencia al dato en lugar del dato completo.',
        { limit_bytes: MAX_EVENT_DATA_BYTES, size_bytes: size },
      );
    }
    const outcome = await this.store.append(topic, event.type, data, event.idempotency_key);
    if (outcome.kind === 'conflict') {
      throw refuse.conflict(
        `La clave de idempotencia '${event.idempotency_key}' ya se usó en '${topic}' para otro evento ` +
          `(secuencia ${outcome.event.seq}, tipo ${outcome.event.type}) con contenido distinto. Usa una clave ` +
          'nueva para un evento nuevo; repite la misma clave solo para reintentar exactamente el mismo evento.',
        { topic, idempotency_key: event.idempotency_key, seq: outcome.event.seq },
      );
    }
    if (outcome.kind === 'stored') this.watcher.published(topic, outcome.event.seq);
    return {
      created: outcome.kind === 'stored',
      result: { event: eventRefView(outcome.event), duplicate: outcome.kind === 'duplicate' },
    };
  }
}
