import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@code-cluster/testkit';
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

/**
 * A nats-server of the test's own (`-js`, its own port and store dir), which the test may kill -9 and start
 * again on the same port and dir; the machine's NATS is never touched.
 */
export class OwnNatsServer {
  private child: ChildProcess | undefined;
  readonly storeDir = mkdtempSync(join(tmpdir(), 'code-nats-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnNatsServer> {
    const server = new OwnNatsServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts the server (again) and resolves once it accepts connections with JetStream on. */
  async restart(): Promise<void> {
    const child = spawn(
      NATS_SERVER,
      ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir],
      {
        stdio: 'ignore',
      },
    );
    this.child = child;
    for (let tries = 0; ; tries++) {
      if (child.exitCode !== null) throw new Error(`${NATS_SERVER} exited with ${child.exitCode}`);
      try {
        const connection = await connect({ servers: this.url, reconnect: false });
        await (await jetstreamManager(connection)).getAccountInfo();
        await connection.close();
        return;
      } catch (error) {
        if (tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async remove(): Promise<void> {
    await this.kill();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}

export const NATS_SERVER = process.env.NATS_SERVER_BIN || '/usr/sbin/nats-server';
