import { randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

const run = randomUUID().slice(0, 8);

/** A stream name of this test run, remembered for `deleteStreams`. */
export function uniqueStream(streams: string[], label: string): string {
  const stream = `TEST_HUBMCP_${run}_${label.replace(/[^A-Za-z0-9]/g, '')}_${streams.length}`;
  streams.push(stream);
  return stream;
}

/** Deletes this run's streams from the shared NATS: tests leave nothing behind there. */
export async function deleteStreams(url: string | undefined, streams: string[]): Promise<void> {
  if (!url || streams.length === 0) return;
  const connection = await connect({ servers: url });
  const jsm = await jetstreamManager(connection);
  for (const stream of streams.splice(0)) await jsm.streams.delete(stream).catch(() => undefined);
  await connection.close();
}
