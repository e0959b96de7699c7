import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A one-time page on loopback where a person types a credential, for URL-mode elicitation (MCP 2025-11-25:
 * a credential never goes through form-mode elicitation, the model or the client). A random port and a
 * random path, a plain HTML form (POST, one password field, no JavaScript), one attempt: the first POST,
 * right or wrong, ends it. The typed value is compared in constant time and never stored, logged or
 * returned; only the verdict leaves this module.
 */
export type CredentialOutcome = 'valid' | 'invalid' | 'closed';

export interface CredentialPage {
  url: string;
  /** The verdict of the one POST, or `closed` when the page ended first (`close()`: a timeout, a cancellation). */
  outcome: Promise<CredentialOutcome>;
  close(): void;
}

export interface CredentialPageOptions {
  /** What the page asks for, in Spanish ("Credencial de operador de groundstation-mcp"). */
  title: string;
  /** One sentence under the title: who asks and what it grants. */
  explanation: string;
  expected: string;
}

/** The field of the form. */
const FIELD = 'credencial';
/** A credential fits in far less; a longer body is not read. */
const MAX_BODY_BYTES = 4096;

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export async function openCredentialPage(options: CredentialPageOptions): Promise<CredentialPage> {
  const path = `/${randomBytes(24).toString('base64url')}`;
  const expected = digest(options.expected);
  let settle: (outcome: CredentialOutcome) => void = () => {};
  const outcome = new Promise<CredentialOutcome>((resolve) => {
    settle = resolve;
  });
  let used = false;
  let host = '';

  const server = createServer((request, response) => {
    // The path is the page's secret; a request for anything else, or with a Host that is not this
    // listener (DNS rebinding), learns nothing.
    if (request.url !== path || request.headers.host !== host || used) return send(response, 404, notFound());
    if (request.method === 'GET') return send(response, 200, form(options, path));
    if (request.method !== 'POST') return send(response, 405, notFound());
    used = true;
    void readForm(request).then(
      (given) => {
        const ok = given !== undefined && timingSafeEqual(digest(given), expected);
        send(response, ok ? 200 : 403, done(ok));
        finish(ok ? 'valid' : 'invalid');
      },
      () => {
        send(response, 400, done(false));
        finish('invalid');
      },
    );
  });
  const finish = (verdict: CredentialOutcome) => {
    settle(verdict);
    // Answers in flight end first; nothing else is served.
    server.close();
    server.closeIdleConnections();
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `http://${host}${path}`,
    outcome,
    close: () => {
      used = true;
      finish('closed');
      server.closeAllConnections();
    },
  };
}

/** The form's one field, from an urlencoded body of at most MAX_BODY_BYTES; undefined when it is not there. */
function readForm(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        request.destroy();
        reject(new Error('body too large'));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get(FIELD) ?? undefined);
    });
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    // Nothing to load, nowhere to post but here, no frame around it, nothing kept or passed on.
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(html);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}` +
  `input,button{font:inherit;padding:.4rem .6rem}label{display:block;margin:1rem 0 .3rem}</style></head>` +
  `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

function form(options: CredentialPageOptions, path: string): string {
  return page(
    options.title,
    `<p>${escapeHtml(options.explanation)}</p>` +
      `<form method="post" action="${path}"><label for="${FIELD}">Credencial</label>` +
      `<input id="${FIELD}" name="${FIELD}" type="password" autocomplete="off" required autofocus> ` +
      '<button type="submit">Enviar</button></form>' +
      '<p>Un solo intento: esta página deja de existir al enviarla o cuando la petición caduca.</p>',
  );
}

function done(ok: boolean): string {
  return ok
    ? page('Acceso concedido', '<p>Listo. Puedes cerrar esta página y volver a tu cliente.</p>')
    : page(
        'Credencial no válida',
        '<p>No coincide: no se concedió nada. Esta página ya no sirve; pide el acceso de nuevo desde tu cliente.</p>',
      );
}

function notFound(): string {
  return page('No existe', '<p>Esta página no existe o ya se usó.</p>');
}
