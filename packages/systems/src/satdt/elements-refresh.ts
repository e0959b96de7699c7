import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataDir } from '../storage/data-dir.js';
import type { ElementChange, ElementStore } from './domain/element-store.js';
import { ElementSourceError, parseElementSets } from './domain/elements-source.js';

export interface ElementsConfig {
  /** A local file of TLEs or OMM JSON, read when the twin starts and on every refresh. */
  file?: string | undefined;
  /** HTTP(S) sources of the same formats, fetched in the background at start and then periodically. */
  urls?: readonly string[] | undefined;
  /** Hours between refreshes of the URLs (8 by default). */
  refreshHours?: number | undefined;
  /** Where the last good body of each URL is kept; `<data dir>/satdt/elements` by default. */
  cacheDir?: string | undefined;
  /** Whole-request timeout per URL, ms. */
  timeoutMs?: number | undefined;
  /** Largest body accepted per URL, bytes. */
  maxBytes?: number | undefined;
}

export type SourceResult = 'actualizada' | 'sin_cambios' | 'no_modificada' | 'rechazada' | 'inaccesible';

/** What one source did in one refresh. */
export interface SourceReport extends ElementChange {
  origin: 'archivo' | 'url';
  location: string;
  result: SourceResult;
  /** Why a source was refused or unreachable (English: it is the operator's log line too). */
  reason?: string;
  /** Element sets the source offered. */
  sets: number;
}

export interface RefreshReport {
  at: string;
  sources: SourceReport[];
  satellites: number;
}

export type ElementsLog = (
  level: 'info' | 'warning',
  message: string,
  fields: Record<string, unknown>,
) => void;

export const DEFAULT_REFRESH_HOURS = 8;
const DEFAULT_TIMEOUT_MS = 30_000;
/** CelesTrak's whole "active" group is some 3 MB as OMM JSON; ten times that is no element file. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

interface CacheMeta {
  url: string;
  etag?: string;
  lastModified?: string;
  fetchedAtMs: number;
}

interface Fetched {
  status: number;
  body: string;
  etag?: string;
  lastModified?: string;
}

/**
 * Keeps the store on current elements: the operator's file and the last good body of every URL at once
 * (synchronous, local), then the URLs in the background and every `refreshHours`. A source that fails in
 * any way leaves the catalog as it was and says why in the log and in the report.
 */
export class ElementsRefresher {
  readonly #store: ElementStore;
  readonly #config: ElementsConfig;
  readonly #now: () => number;
  readonly #log: ElementsLog;
  readonly #cacheDir: string;
  /** Validators of the body each URL last delivered and the catalog took in. */
  readonly #validators = new Map<string, CacheMeta>();
  #queue: Promise<unknown> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(store: ElementStore, config: ElementsConfig, now: () => number, log: ElementsLog) {
    this.#store = store;
    this.#config = config;
    this.#now = now;
    this.#log = log;
    this.#cacheDir = config.cacheDir ?? join(dataDir(), 'satdt', 'elements');
  }

  /**
   * Loads the file and the cached bodies now; starts fetching the URLs without waiting for them. Returns
   * that first refresh (undefined without URLs) for whoever must know when it is over.
   */
  start(): Promise<RefreshReport> | undefined {
    if (this.#config.file) this.#report(this.#loadFile(this.#config.file));
    for (const url of this.#config.urls ?? []) this.#loadCache(url);
    if ((this.#config.urls ?? []).length === 0) return undefined;
    const first = this.refresh();
    const hours = this.#config.refreshHours ?? DEFAULT_REFRESH_HOURS;
    this.#timer = setInterval(() => void this.refresh(), hours * 3_600_000);
    this.#timer.unref();
    return first;
  }

  /**
   * One refresh of every source. Refreshes run one after another: one asked for while another runs
   * waits for it and then reads the sources again, so its report never predates the request.
   */
  refresh(): Promise<RefreshReport> {
    const next = this.#queue.then(() => this.#refreshAll());
    this.#queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async #refreshAll(): Promise<RefreshReport> {
    const sources: SourceReport[] = [];
    if (this.#config.file) sources.push(this.#report(this.#loadFile(this.#config.file)));
    for (const url of this.#config.urls ?? []) sources.push(this.#report(await this.#refreshUrl(url)));
    return { at: new Date(this.#now()).toISOString(), sources, satellites: this.#store.catalog.size };
  }

  #loadFile(path: string): SourceReport {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      return failed('archivo', path, 'inaccesible', `cannot read the file: ${(error as Error).message}`);
    }
    return this.#take('archivo', path, text, this.#now());
  }

  #take(origin: 'archivo' | 'url', location: string, text: string, loadedAtMs: number): SourceReport {
    let entries: ReturnType<typeof parseElementSets>;
    try {
      entries = parseElementSets(text, { origin, location, loadedAtMs }, this.#now());
    } catch (error) {
      if (!(error instanceof ElementSourceError)) throw error;
      return failed(origin, location, 'rechazada', error.message);
    }
    const change = this.#store.apply(entries);
    const changed = change.updated.length + change.added.length > 0;
    return {
      origin,
      location,
      result: changed ? 'actualizada' : 'sin_cambios',
      sets: entries.length,
      ...change,
    };
  }

  async #refreshUrl(url: string): Promise<SourceReport> {
    const known = this.#validators.get(url);
    let fetched: Fetched;
    try {
      fetched = await this.#fetch(url, known);
    } catch (error) {
      return failed('url', url, 'inaccesible', (error as Error).message);
    }
    if (fetched.status === 304 && known) {
      return { origin: 'url', location: url, result: 'no_modificada', sets: 0, ...noChange() };
    }
    if (fetched.status !== 200) {
      return failed('url', url, 'inaccesible', `HTTP ${fetched.status}`);
    }
    const fetchedAtMs = this.#now();
    const report = this.#take('url', url, fetched.body, fetchedAtMs);
    if (report.result !== 'rechazada') {
      const meta: CacheMeta = {
        url,
        fetchedAtMs,
        ...(fetched.etag ? { etag: fetched.etag } : {}),
        ...(fetched.lastModified ? { lastModified: fetched.lastModified } : {}),
      };
      this.#validators.set(url, meta);
      this.#writeCache(url, fetched.body, meta);
    }
    return report;
  }

  async #fetch(url: string, known: CacheMeta | undefined): Promise<Fetched> {
    const timeoutMs = this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = this.#config.maxBytes ?? DEFAULT_MAX_BYTES;
    // undici (and node:http under it) loads only for a twin with URLs: stdio servers stay light. Loading
    // it is not the source's time: the timeout starts once the request can be sent.
    const { request } = await import('undici');
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, {
        method: 'GET',
        headers: {
          accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
          ...(known?.etag ? { 'if-none-match': known.etag } : {}),
          ...(known?.lastModified ? { 'if-modified-since': known.lastModified } : {}),
        },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal,
      });
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        response.body.destroy();
        throw new Error(`body of ${declared} bytes is over the ${maxBytes}-byte cap`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          response.body.destroy();
          throw new Error(`body over the ${maxBytes}-byte cap`);
        }
        chunks.push(chunk as Buffer);
      }
      const header = (name: string) => {
        const value = response.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      return {
        status: response.statusCode,
        body: Buffer.concat(chunks).toString('utf8'),
        ...optional('etag', header('etag')),
        ...optional('lastModified', header('last-modified')),
      };
    } catch (error) {
      if (signal.aborted) throw new Error(`no complete answer within ${timeoutMs} ms`);
      throw error;
    }
  }

  #cachePaths(url: string) {
    const key = createHash('sha256').update(url).digest('hex').slice(0, 24);
    return { body: join(this.#cacheDir, `${key}.elements`), meta: join(this.#cacheDir, `${key}.json`) };
  }

  /** A restart without network starts from the last good body of each URL. */
  #loadCache(url: string): void {
    const paths = this.#cachePaths(url);
    let body: string;
    let meta: CacheMeta;
    try {
      body = readFileSync(paths.body, 'utf8');
      meta = JSON.parse(readFileSync(paths.meta, 'utf8')) as CacheMeta;
    } catch {
      return;
    }
    if (meta.url !== url) return;
    const report = this.#report(this.#take('url', url, body, meta.fetchedAtMs));
    // Conditional requests only for a body the catalog holds: a 304 must mean "you have this".
    if (report.result !== 'rechazada') this.#validators.set(url, meta);
  }

  #writeCache(url: string, body: string, meta: CacheMeta): void {
    const paths = this.#cachePaths(url);
    try {
      mkdirSync(this.#cacheDir, { recursive: true });
      // Body first, each through a rename: a crash leaves the previous pair or a body newer than its meta.
      writeFileSync(`${paths.body}.tmp`, body);
      renameSync(`${paths.body}.tmp`, paths.body);
      writeFileSync(`${paths.meta}.tmp`, JSON.stringify(meta));
      renameSync(`${paths.meta}.tmp`, paths.meta);
    } catch (error) {
      this.#log('warning', 'satdt: could not cache the element sets', { url, error });
    }
  }

  #report(report: SourceReport): SourceReport {
    const fields = { source: report.location, sets: report.sets };
    if (report.result === 'rechazada' || report.result === 'inaccesible') {
      this.#log(
        'warning',
        `satdt: element source ${report.result === 'rechazada' ? 'rejected' : 'unreachable'}, catalog unchanged: ${report.reason}`,
        fields,
      );
    } else if (report.result === 'actualizada') {
      this.#log('info', 'satdt: element sets updated', {
        ...fields,
        updated: report.updated.length,
        added: report.added.length,
        older: report.older.length,
      });
    }
    return report;
  }
}

function noChange(): ElementChange {
  return { updated: [], added: [], older: [], unchanged: [] };
}

function failed(
  origin: 'archivo' | 'url',
  location: string,
  result: 'rechazada' | 'inaccesible',
  reason: string,
): SourceReport {
  return { origin, location, result, reason, sets: 0, ...noChange() };
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
