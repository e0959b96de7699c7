import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpServerProcess } from './http-peer.js';
import { tempDataDir } from './results.js';
import { type ServerApp, serverBin } from './servers.js';

/**
 * Replicas of a built server over Streamable HTTP that share only what `env` points them at (a database,
 * a stream): each has a data dir of its own. Clients are the official SDK's, one session each, as agents
 * behind a load balancer sticky by `Mcp-Session-Id` would be. `close()` ends clients, servers and dirs.
 */
export class Replicas {
  private readonly clients: Client[] = [];

  private constructor(
    readonly servers: HttpServerProcess[],
    private readonly data: { remove(): void },
  ) {}

  static async start(app: ServerApp, env: Record<string, string>, count = 2): Promise<Replicas> {
    const data = tempDataDir(`code-cluster-${app}-replicas-`);
    const servers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        HttpServerProcess.start(serverBin(app), [], {
          env: { ...process.env, ...env, CODE_CLUSTER_DATA_DIR: `${data.dir}/${i}` },
        }),
      ),
    );
    return new Replicas(servers, data);
  }

  /** A new session on replica `index` (0 is A, 1 is B). */
  async connect(index: number, name = `cliente-${this.clients.length}`): Promise<Client> {
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(this.servers[index]!.url)));
    this.clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.clients.map((c) => c.close()));
    await Promise.allSettled(this.servers.map((s) => s.stop('SIGKILL')));
    this.data.remove();
  }
}
