import { systemOptions } from '@code-cluster/mcp-kit';
import { z } from 'zod';

/**
 * hub-mcp's settings beyond mcp-kit's common ones (flags with environment fallbacks), in a module of their
 * own so that the packaging (scripts/lib/catalog.mjs) reads them without starting the server.
 */
export const options = {
  ...systemOptions('HUB', 'hub system (subscriptions then poll it)'),
  pollIntervalMs: {
    flag: 'poll-interval-ms',
    env: 'HUB_POLL_INTERVAL_MS',
    schema: z.coerce.number().int().min(50).max(60_000).default(500),
    description: 'remote mode: how often a subscribed topic is polled, ms (default 500)',
  },
  natsUrl: {
    flag: 'nats-url',
    env: 'HUB_NATS_URL',
    schema: z.url({ protocol: /^(nats|tls)$/ }).optional(),
    description:
      'embedded mode: keep the log on NATS JetStream at this URL (replicas share it); unset: SQLite in the data dir',
  },
  natsStream: {
    flag: 'nats-stream',
    env: 'HUB_NATS_STREAM',
    schema: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .default('CODE_CLUSTER_HUB'),
    description: 'the JetStream stream of the log (default CODE_CLUSTER_HUB); another name, its own subjects',
  },
};
