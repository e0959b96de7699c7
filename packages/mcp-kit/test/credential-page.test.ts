// The one-time credential page of URL-mode elicitation, over real HTTP on loopback: what it serves, to
// whom, and that one POST (right or wrong) or close() ends it.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { openCredentialPage } from '../src/credential-page.js';

const OPTIONS = { title: 'Acceso', explanation: 'Escribe la credencial.', expected: 'la-buena' };

/** A raw request, so the Host header is ours to choose. */
function raw(url: string, init: { method?: string; host?: string; body?: string } = {}) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: init.method ?? 'GET',
          headers: {
            host: init.host ?? target.host,
            ...(init.body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
        },
        (res) => {
          let body = '';
          res.on('data', (c) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(init.body);
    },
  );
}

describe('openCredentialPage', () => {
  it('serves a plain form with a strict CSP, only at its path and only to its own Host', async () => {
    const page = await openCredentialPage(OPTIONS);
    try {
      const form = await raw(page.url);
      expect(form.status).toBe(200);
      expect(form.body).toContain('<form method="post"');
      expect(form.body).not.toContain('<script');
      expect(form.headers['content-security-policy']).toContain("default-src 'none'");
      expect(form.headers['cache-control']).toBe('no-store');
      expect((await raw(`${new URL(page.url).origin}/otra`)).status).toBe(404);
      expect((await raw(page.url, { host: 'evil.example:80' })).status).toBe(404);
      expect((await raw(page.url, { method: 'PUT' })).status).toBe(405);
    } finally {
      page.close();
    }
  });

  it('takes one POST: the right credential is valid, and the page is gone after it', async () => {
    const page = await openCredentialPage(OPTIONS);
    const answer = await raw(page.url, { method: 'POST', body: 'credencial=la-buena' });
    expect(answer.status).toBe(200);
    expect(await page.outcome).toBe('valid');
    await expect(raw(page.url)).rejects.toThrow();
  });

  it('answers a wrong credential, a missing field or an oversized body as invalid, once', async () => {
    for (const body of ['credencial=la-mala', 'otra=cosa', `credencial=${'x'.repeat(5000)}`]) {
      const page = await openCredentialPage(OPTIONS);
      const answer = await raw(page.url, { method: 'POST', body }).catch(() => ({ status: 0 }));
      expect([400, 403, 0]).toContain(answer.status);
      expect(await page.outcome).toBe('invalid');
    }
  });

  it('ends as closed when closed before any POST', async () => {
    const page = await openCredentialPage(OPTIONS);
    page.close();
    expect(await page.outcome).toBe('closed');
    await expect(raw(page.url)).rejects.toThrow();
  });
});
