import type { WireMessage } from './peer.js';
import { resultOf } from './protocol.js';

/** One tool of the unified catalog and the server that owns it. */
export interface CatalogEntry {
  name: string;
  server: string;
  title: string;
  description: string;
}

/** A tool name offered by more than one server. */
export interface NameClash {
  name: string;
  servers: string[];
}

/** Thrown when two servers offer the same tool name: a host could not tell which one to call. */
export class ToolNameClashError extends Error {
  readonly clashes: NameClash[];

  constructor(clashes: NameClash[]) {
    super(
      `tool names must be unique across the cluster, but ${clashes
        .map((c) => `${c.name} is offered by ${c.servers.join(' and ')}`)
        .join('; ')}: a host could not tell which server to call`,
    );
    this.clashes = clashes;
  }
}

/** The tools of one tools/list response, tagged with the server that answered it. */
export function toolsOf(server: string, response: WireMessage): CatalogEntry[] {
  const tools = resultOf(response)?.['tools'];
  if (!Array.isArray(tools)) {
    const why = response.error
      ? `JSON-RPC error ${response.error.code} "${response.error.message}"`
      : 'no tools';
    throw new Error(`${server} answered tools/list with ${why}`);
  }
  return tools
    .filter((tool): tool is Record<string, unknown> & { name: string } => typeof tool?.name === 'string')
    .map((tool) => ({
      name: tool.name,
      server,
      title: typeof tool['title'] === 'string' ? tool['title'] : '',
      description: typeof tool['description'] === 'string' ? tool['description'] : '',
    }));
}

/**
 * Merges every server's tools into one catalog sorted by name, the way a host routes a call: by tool name
 * alone. Throws ToolNameClashError when a name is offered twice, since the route would be ambiguous.
 */
export function mergeCatalog(perServer: readonly CatalogEntry[][]): CatalogEntry[] {
  const owners = new Map<string, string[]>();
  for (const entry of perServer.flat())
    owners.set(entry.name, [...(owners.get(entry.name) ?? []), entry.server]);
  const clashes = [...owners]
    .filter(([, servers]) => servers.length > 1)
    .map(([name, servers]) => ({ name, servers }));
  if (clashes.length > 0) throw new ToolNameClashError(clashes);
  return perServer.flat().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The catalog as an aligned table: tool, server, title (or the first words of the description). */
export function formatCatalog(catalog: readonly CatalogEntry[]): string[] {
  const nameWidth = Math.max(4, ...catalog.map((e) => e.name.length));
  const serverWidth = Math.max(6, ...catalog.map((e) => e.server.length));
  const row = (name: string, server: string, title: string) =>
    `${name.padEnd(nameWidth)}  ${server.padEnd(serverWidth)}  ${title}`.trimEnd();
  return [
    row('tool', 'server', 'title'),
    row('─'.repeat(nameWidth), '─'.repeat(serverWidth), '─'.repeat(5)),
    ...catalog.map((e) => row(e.name, e.server, e.title || shorten(e.description, 60))),
  ];
}

function shorten(text: string, width: number): string {
  const sentence = text.split(/(?<=\.)\s/)[0] ?? '';
  return sentence.length > width ? `${sentence.slice(0, width - 1)}…` : sentence;
}
