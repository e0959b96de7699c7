import type { TargetSpec } from './args.js';
import { type CatalogEntry, mergeCatalog, toolsOf } from './catalog.js';
import type { PeerExit, WireMessage } from './peer.js';
import { initializeParams, resultOf } from './protocol.js';
import type { Printer } from './render.js';
import { Session } from './session.js';
import { resolveTarget } from './targets.js';

export interface HostOptions {
  printer: Printer;
  protocolVersion: string;
  /** Environment of every server process (CODE_CLUSTER_DATA_DIR goes here). */
  env: NodeJS.ProcessEnv;
  showStderr: boolean;
}

/** How one server process ended when the host let it go. */
export interface ServerExit {
  label: string;
  exit: PeerExit;
  /** Set when the process was already gone before the host closed it. */
  goneBefore?: string;
}

/**
 * A small MCP host: one child process and one client session per server, a unified catalog of their tools,
 * and tool calls routed by name to the server that owns the tool. Every message goes through the shared
 * printer, labelled with its server.
 */
export class Host {
  readonly sessions: Session[] = [];
  private readonly options: HostOptions;
  private readonly routes = new Map<string, Session>();
  private merged: CatalogEntry[] = [];

  constructor(options: HostOptions) {
    this.options = options;
  }

  get printer(): Printer {
    return this.options.printer;
  }

  /** The unified catalog of the last discover(). */
  get catalog(): readonly CatalogEntry[] {
    return this.merged;
  }

  /** Starts a server (its own process) and opens a session to it; the suffix tells a second one apart. */
  open(spec: TargetSpec, labelSuffix = ''): Session {
    const target = resolveTarget(spec);
    // Labels name the servers in the transcript and the catalog: a second process of one gets `#2`.
    let label = `${target.label}${labelSuffix}`;
    for (let n = 2; this.sessions.some((s) => s.label === label); n++) label = `${target.label}#${n}`;
    const session = Session.start({ ...target, label }, this.printer, {
      showStderr: this.options.showStderr,
      env: this.options.env,
    });
    this.sessions.push(session);
    return session;
  }

  /** initialize + notifications/initialized; resolves with the initialize result, throws if there is none. */
  async initialize(session: Session): Promise<Record<string, unknown>> {
    const response = await session.request('initialize', initializeParams(this.options.protocolVersion));
    const result = resultOf(response);
    if (!result || typeof result['protocolVersion'] !== 'string') {
      throw new Error(`${session.label} did not complete the handshake: ${describeResponse(response)}`);
    }
    session.notify('notifications/initialized');
    return result;
  }

  /**
   * tools/list on each session, merged into one catalog that routes every tool to its server. Throws
   * ToolNameClashError when two servers offer the same name.
   */
  async discover(sessions: readonly Session[]): Promise<readonly CatalogEntry[]> {
    const perServer: CatalogEntry[][] = [];
    const owners = new Map<string, Session>();
    for (const session of sessions) {
      const tools = toolsOf(session.label, await session.request('tools/list'));
      perServer.push(tools);
      for (const tool of tools) owners.set(tool.name, session);
    }
    this.merged = mergeCatalog(perServer);
    this.routes.clear();
    for (const [name, session] of owners) this.routes.set(name, session);
    return this.merged;
  }

  /** The server that owns a tool, by the catalog. */
  ownerOf(tool: string): string | undefined {
    return this.routes.get(tool)?.label;
  }

  /** tools/call on the server that owns the tool. */
  call(tool: string, args: Record<string, unknown>): Promise<WireMessage> {
    const session = this.routes.get(tool);
    if (!session) throw new Error(`no server in the catalog offers ${tool}`);
    return session.request('tools/call', { name: tool, arguments: args });
  }

  /** Closes every session still open (stdin first, as a host quitting does) and reports how each ended. */
  async closeAll(): Promise<ServerExit[]> {
    return Promise.all(
      this.sessions
        .filter((session) => !session.failedToStart)
        .map(async (session) => {
          const goneBefore = session.ended;
          const exit = await session.close();
          return { label: session.label, exit, ...(goneBefore ? { goneBefore } : {}) };
        }),
    );
  }
}

export function describeResponse(response: WireMessage): string {
  if (response.error) return `JSON-RPC error ${response.error.code} "${response.error.message}"`;
  return resultOf(response)?.['isError'] === true ? 'a result with isError: true' : 'a result';
}
