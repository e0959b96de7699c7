import type { HubApi } from '@code-cluster/shared/hub';
import { type Handlers, Reply } from '../http/router.js';
import type { Publishing } from './publishing.js';
import type { Reading } from './reading.js';

export const HUB_VERSION = '0.1.0';

/** Each endpoint of the hub's API (packages/shared/src/hub/api.ts) to its use case. */
export function hubRoutes(publishing: Publishing, reading: Reading): Handlers<HubApi> {
  return {
    health: () => ({ status: 'ok', system: 'hub', version: HUB_VERSION }),
    listTopics: async () => ({ topics: await reading.topics() }),
    getTopic: ({ params }) => reading.topic(params.topic),
    publish: async ({ params, body }) => {
      const { created, result } = await publishing.publish(params.topic, body);
      return new Reply(created ? 201 : 200, result);
    },
    read: ({ params, query }) => reading.page({ topic: params.topic, ...query }),
  };
}
