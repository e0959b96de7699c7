import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import { HttpErrorCodes } from '../protocol/errors.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** Whether binding `host` keeps the server on this machine (loopback interface only). */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return LOOPBACK_NAMES.has(name) || (isIPv4(name) && name.startsWith('127.'));
}

/** `host` as it appears in a URL or a Host header: IPv6 addresses in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The host name of a Host header value, without the port, lower case; undefined when it is anything but
 * `host[:port]` (`localhost/evil`, `user@host`): such a value would otherwise reach the SDK's URL building
 * and come back as a bare 400.
 */
function hostName(header: string): string | undefined {
  try {
    const url = new URL(`http://${header}`);
    if (url.host !== header.toLowerCase() && url.host !== header.toLowerCase().replace(/:80$/, ''))
      return undefined;
    return url.hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export interface OriginPolicy {
  /** Extra allowed origins (`https://console.example.org`), on top of loopback ones. */
  allowedOrigins?: readonly string[];
  /** Extra allowed Host names, on top of loopback names and the bind address; `*` allows any. */
  allowedHosts?: readonly string[];
  /** The address the server binds; a specific one is an allowed Host name. */
  bindHost: string;
}

export type Refusal = { status: number; code: number; message: string; headers?: Record<string, string> };

/**
 * DNS-rebinding protection: a browser page of another site that resolves its name to 127.0.0.1 still sends
 * its own Host and Origin. Both are checked against allowlists (loopback by default); requests without an
 * Origin (non-browser clients) pass the Origin check.
 */
export class OriginGuard {
  private readonly origins: Set<string>;
  private readonly hosts: Set<string>;
  private readonly anyHost: boolean;

  constructor(policy: OriginPolicy) {
    this.origins = new Set((policy.allowedOrigins ?? []).map(normaliseOrigin).filter(isString));
    const hosts = (policy.allowedHosts ?? []).map((h) => h.toLowerCase());
    this.anyHost = hosts.includes('*');
    this.hosts = new Set([...LOOPBACK_NAMES, ...hosts.map((h) => hostName(h) ?? h)]);
    const bind = policy.bindHost.toLowerCase();
    if (bind !== '0.0.0.0' && bind !== '::' && bind !== '[::]')
      this.hosts.add(hostName(urlHost(bind)) ?? bind);
  }

  check(req: IncomingMessage): Refusal | undefined {
    const host = req.headers.host;
    if (!this.anyHost) {
      const name = host === undefined ? undefined : hostName(host);
      if (name === undefined || !this.hosts.has(name)) {
        return {
          status: 403,
          code: HttpErrorCodes.Forbidden,
          message: `Forbidden: Host header not allowed: ${clip(host ?? '(none)')}`,
        };
      }
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.allowsOrigin(origin)) {
      return {
        status: 403,
        code: HttpErrorCodes.Forbidden,
        message: `Forbidden: Origin not allowed: ${clip(origin)}`,
      };
    }
    return undefined;
  }

  private allowsOrigin(origin: string): boolean {
    const normalised = normaliseOrigin(origin);
    if (normalised === undefined) return false;
    if (this.origins.has(normalised)) return true;
    const url = new URL(normalised);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname);
  }
}

/** One bearer token of `MCP_HTTP_TOKENS_FILE` and whose it is. */
export interface TokenEntry {
  token: string;
  scope: string;
  label: string;
}

/** Who an HTTP session belongs to; what its token's entry says, never the token. */
export type Principal = Omit<TokenEntry, 'token'>;

/**
 * Bearer-token authentication. Compares digests with `timingSafeEqual`, so neither the token's content nor
 * its length leaks through timing.
 */
export class BearerAuth {
  private readonly digest: Buffer | undefined;
  private readonly principals: ReadonlyArray<{ digest: Buffer; principal: Principal }>;

  /** `token`: the one shared token (sessions get the process's own rights); `principals`: one per token. */
  constructor(token: string | undefined, principals: readonly TokenEntry[] = []) {
    this.digest = token === undefined ? undefined : sha256(token);
    this.principals = principals.map(({ token: secret, ...principal }) => ({
      digest: sha256(secret),
      principal,
    }));
  }

  check(req: IncomingMessage): Refusal | undefined {
    const header = req.headers.authorization;
    const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
    if (!match) {
      return {
        status: 401,
        code: HttpErrorCodes.Unauthorized,
        message: 'Unauthorized: a bearer token is required',
        headers: { 'WWW-Authenticate': 'Bearer realm="mcp"' },
      };
    }
    if (this.identify(match[1]!) === undefined) {
      return {
        status: 401,
        code: HttpErrorCodes.Unauthorized,
        message: 'Unauthorized: invalid bearer token',
        headers: { 'WWW-Authenticate': 'Bearer realm="mcp", error="invalid_token"' },
      };
    }
    return undefined;
  }

  /** Who an accepted request is: the entry of its token, or undefined for the shared token. */
  principalOf(req: IncomingMessage): Principal | undefined {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
    const found = match ? this.identify(match[1]!) : undefined;
    return found === 'shared' ? undefined : found;
  }

  /** Compares with every token, never stopping early, so timing tells nothing about which one matched. */
  private identify(token: string): Principal | 'shared' | undefined {
    const digest = sha256(token);
    let found: Principal | 'shared' | undefined;
    if (this.digest && timingSafeEqual(digest, this.digest)) found = 'shared';
    for (const entry of this.principals) if (timingSafeEqual(digest, entry.digest)) found ??= entry.principal;
    return found;
  }
}

/**
 * Removes the client's credentials from a request before the SDK sees it, so no handler (and no system
 * behind one) can ever read or forward them (DESIGN.md §3 rule 8).
 */
export function stripCredentials(req: IncomingMessage): void {
  delete req.headers.authorization;
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === 'authorization') raw.splice(i, 2);
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function normaliseOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? undefined : url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

/** Echoed header values are clipped: an error body must not become a megabyte of attacker text. */
function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
